import Foundation

/// The car's running cost per kilometre, a setting (`--car-cost-per-km 0.25 EUR`).
public struct CarCost: Hashable, Sendable {
    public var perKilometre: Money

    public init(perKilometre: Money) { self.perKilometre = perKilometre }

    /// The estimated cost of driving `metres`, rounded to cents.
    public func quote(metres: Double) -> PriceQuote {
        let kilometres = Decimal(string: String(format: "%.3f", metres / 1000)) ?? 0
        let cost = Money(amount: perKilometre.amount * kilometres, currency: perKilometre.currency).roundedToCents
        return PriceQuote(price: cost, note: "estimate: \(perKilometre.amount) \(perKilometre.currency)/km", isEstimate: true)
    }
}
