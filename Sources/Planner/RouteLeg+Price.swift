import Foundation

extension RouteLeg {
    /// This leg's price as the wire shows it: a transit leg's fare, a car leg's estimate (when
    /// the daemon has a car cost); no price and "no fare" for a walk.
    public var priceQuote: PriceQuote {
        switch mode {
        case .car: return price ?? .unknown("price unknown (no car cost set)")
        case .transit: return price ?? .unknown("price unknown (fares not read)")
        default: return PriceQuote(price: nil, note: "no fare")
        }
    }
}
