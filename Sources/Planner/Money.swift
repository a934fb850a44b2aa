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

    /// "3.50 EUR": to the cent, as umctl and the web page show prices.
    public var text: String {
        String(format: "%.2f", NSDecimalNumber(decimal: roundedToCents.amount).doubleValue) + " " + currency
    }

    /// The amount rounded to cents (half up), for estimates computed from a rate.
    public var roundedToCents: Money {
        var value = amount, rounded = Decimal()
        NSDecimalRound(&rounded, &value, 2, .plain)
        return Money(amount: rounded, currency: currency)
    }
}
