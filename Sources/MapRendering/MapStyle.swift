import Planner

/// The colours and widths of a map picture. Leg colours are saturated and far from the greys
/// of the streets, so a reader (or a test sampling pixels) tells a route from the street under it.
public enum MapStyle {
    public static let background = MapColor(red: 0.97, green: 0.96, blue: 0.94)
    public static let walk = MapColor(hex: "1565C0")!
    public static let car = MapColor(hex: "C62828")!
    /// Green, far from walk's blue, car's red, the default transit purple and the street greys.
    public static let bike = MapColor(hex: "2E7D32")!
    /// Rides whose feed gives no `route_color`.
    public static let transit = MapColor(hex: "6A1B9A")!
    static let casing = MapColor(red: 1, green: 1, blue: 1)
    static let ink = MapColor(red: 0.13, green: 0.13, blue: 0.13)

    public static func color(of mode: TravelMode) -> MapColor {
        switch mode {
        case .walk: walk
        case .car: car
        case .bike: bike
        case .transit: transit
        }
    }

    /// Pixels wide a line of this mode is drawn (walks thinner than vehicles).
    public static func width(of mode: TravelMode) -> Double { mode == .walk ? 4 : 6 }

    /// The most ground metres per pixel at which a class is still drawn.
    static func finestScale(of streetClass: StreetClass) -> Double {
        switch streetClass {
        case .major, .secondary: .infinity
        case .minor: 20
        case .path: 6
        }
    }

    static func street(_ streetClass: StreetClass) -> (color: MapColor, width: Double) {
        switch streetClass {
        case .major: (MapColor(red: 0.66, green: 0.66, blue: 0.66), 3.2)
        case .secondary: (MapColor(red: 0.74, green: 0.74, blue: 0.74), 2.2)
        case .minor: (MapColor(red: 0.82, green: 0.82, blue: 0.82), 1.3)
        case .path: (MapColor(red: 0.88, green: 0.88, blue: 0.88), 0.8)
        }
    }
}
