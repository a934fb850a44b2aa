import Foundation

/// What a leg, an option or a plan costs: a price, or `nil` with a note saying why none is
/// known. Never a guess: an unknown price is not 0.
public struct PriceQuote: Hashable, Sendable, Codable {
    public var price: Money?
    /// Why the price is unknown, or what an estimate is based on.
    public var note: String?
    /// The price is an estimate (the car's cost per kilometre), not a fare.
    public var isEstimate: Bool

    public init(price: Money?, note: String? = nil, isEstimate: Bool = false) {
        self.price = price
        self.note = note
        self.isEstimate = isEstimate
    }

    public static func unknown(_ note: String) -> PriceQuote { PriceQuote(price: nil, note: note) }

    /// The sum of `parts` when every one is known and in one currency; else unknown, saying
    /// which part is missing. Nil when there are no parts.
    public static func total(of parts: [PriceQuote]) -> PriceQuote? {
        guard let first = parts.first else { return nil }
        if parts.count == 1 { return first }
        if let missing = parts.first(where: { $0.price == nil }) {
            return .unknown(missing.note ?? "price unknown")
        }
        let prices = parts.compactMap(\.price)
        guard Set(prices.map(\.currency)).count == 1 else { return .unknown("price unknown (parts in several currencies)") }
        let sum = prices.reduce(Decimal(0)) { $0 + $1.amount }
        let estimate = parts.contains(where: \.isEstimate)
        return PriceQuote(price: Money(amount: sum, currency: first.price?.currency ?? ""),
                          note: estimate ? "includes an estimate" : nil, isEstimate: estimate)
    }
}
