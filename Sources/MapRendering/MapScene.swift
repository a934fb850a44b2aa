import Foundation
import Planner

/// What a picture shows above the streets: coloured routes, labelled places and a legend.
public struct MapScene: Hashable, Sendable {
    public struct Route: Hashable, Sendable {
        public var points: [Coordinate]
        public var color: MapColor
        public var width: Double
    }

    public struct Marker: Hashable, Sendable {
        public var coordinate: Coordinate
        public var label: String
    }

    public struct LegendEntry: Hashable, Sendable {
        public var label: String
        public var color: MapColor
    }

    /// In drawing order (later on top).
    public var routes: [Route]
    public var markers: [Marker]
    public var legend: [LegendEntry]

    /// Every point the picture must show.
    var extent: [Coordinate] { routes.flatMap(\.points) + markers.map(\.coordinate) }

    /// One plan: each line in its mode's colour (a ride in its route's colour when the feed gives
    /// one), each node labelled with its name and time ("Keskustori 08:15").
    public static func plan(_ geometry: PlanGeometry, timeZone: TimeZone) -> MapScene {
        let routes = geometry.lines.map { line in
            Route(points: line.points,
                  color: line.color.flatMap(MapColor.init(hex:)) ?? MapStyle.color(of: line.mode),
                  width: MapStyle.width(of: line.mode))
        }
        let markers = geometry.nodes.map { node in
            Marker(coordinate: node.coordinate,
                   label: [node.name, node.time.map { clock($0, timeZone: timeZone) }].compactMap { $0 }.joined(separator: " "))
        }
        let modes = Set(geometry.lines.map(\.mode))
        let legend = TravelMode.allCases.filter(modes.contains).map { LegendEntry(label: $0.rawValue, color: MapStyle.color(of: $0)) }
        return MapScene(routes: routes, markers: markers, legend: legend)
    }

    /// Several ways of making one trip (a `compare`): each option's lines in its own mode's
    /// colour, whatever mode its parts use, so the three routes tell apart; the ends labelled once.
    public static func comparison(_ options: [(mode: TravelMode, geometry: PlanGeometry)], timeZone: TimeZone) -> MapScene {
        var routes: [Route] = []
        var legend: [LegendEntry] = []
        // Vehicles first, the walk on top: it is the thinnest line.
        for option in options.sorted(by: { ($0.mode == .walk ? 1 : 0) < ($1.mode == .walk ? 1 : 0) }) {
            let color = MapStyle.color(of: option.mode)
            routes += option.geometry.lines.map { Route(points: $0.points, color: color, width: MapStyle.width(of: option.mode)) }
        }
        for option in options {
            let minutes = option.geometry.lines.compactMap(\.duration).reduce(0, +) / 60
            legend.append(LegendEntry(label: "\(option.mode.rawValue) \(Int(minutes.rounded())) min", color: MapStyle.color(of: option.mode)))
        }
        let ends = options.first.map { option in
            [option.geometry.nodes.first, option.geometry.nodes.last].compactMap { $0 }.map {
                Marker(coordinate: $0.coordinate, label: $0.name)
            }
        } ?? []
        return MapScene(routes: routes, markers: ends, legend: legend)
    }

    static func clock(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}
