import Foundation

/// An amount of money in one ISO 4217 currency ("EUR").
public struct Money: Hashable, Sendable, Codable {
    public var amount: Decimal
    public var currency: String

    public init(amount: Decimal, currency: String) {
        self.amount = amount
        self.currency = currency
    }

    /// The ISO 4217 codes Foundation knows; three upper-case letters alone are not enough.
    public static let isoCurrencies = Set(Locale.commonISOCurrencyCodes)

    /// A non-negative decimal number ("3.5", "12", "0.80"); nil for anything else (a sign, an
    /// exponent, trailing text): `Decimal(string:)` alone would read "3.5€" as 3.5.
    public static func decimal(_ text: String) -> Decimal? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !text.isEmpty, parts.count <= 2, !parts[0].isEmpty,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              parts.count == 1 || !parts[1].isEmpty else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// "0.25 EUR": a non-negative amount and an ISO 4217 currency, separated by spaces.
    public init?(parsing text: String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard words.count == 2, let amount = Self.decimal(words[0]), Self.isoCurrencies.contains(words[1]) else { return nil }
        self.init(amount: amount, currency: words[1])
    }

    /// The amount rounded to cents (half up), for estimates computed from a rate.
    public var roundedToCents: Money {
        var value = amount, rounded = Decimal()
        NSDecimalRound(&rounded, &value, 2, .plain)
        return Money(amount: rounded, currency: currency)
    }
}

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
