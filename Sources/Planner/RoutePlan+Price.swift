import Foundation

extension RoutePlan {
    /// The plan's price: its transit legs' fares plus its car legs' estimates. Walking costs
    /// nothing. Nil for a plan that only walks; unknown when a leg is missing or a part's price is
    /// unknown. Legs are priced one by one: a ticket is not carried from one segment to the next.
    public var price: PriceQuote? {
        var parts: [PriceQuote] = []
        for (index, leg) in legs.enumerated() {
            // Only fares and the car cost money; walking (and any other own-power mode) is free.
            guard modes[index] == .transit || modes[index] == .car else { continue }
            guard let leg else { parts.append(.unknown("price unknown (a leg is not computed)")); continue }
            parts.append(leg.priceQuote)
        }
        return PriceQuote.total(of: parts)
    }
}
