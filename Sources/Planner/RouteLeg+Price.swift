import Foundation

extension RouteLeg {
    /// This leg's price as the wire shows it: a transit leg's fare, a car leg's estimate (when
    /// the daemon has a car cost); no price and "no fare" for a walk.
    public var priceQuote: PriceQuote {
        switch mode {
        // Not unknown: not asked for (the daemon prices driving only with --car-cost-per-km).
        case .car: return price ?? PriceQuote(price: nil, note: "no car cost set (--car-cost-per-km)")
        case .transit: return price ?? .unknown("price unknown (fares not read)")
        default: return PriceQuote(price: nil, note: "no fare")
        }
    }
}
