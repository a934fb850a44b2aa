/// A price on the wire: `{"amount": 3.5, "currency": "EUR"}` (ISO 4217 currency).
public struct PriceDocument: Hashable, Sendable, Codable {
    public var amount: Double
    public var currency: String

    public init(amount: Double, currency: String) {
        self.amount = amount
        self.currency = currency
    }
}

/// A price and its note, as a plan or an option carries them.
public struct PriceQuoteParts: Hashable, Sendable {
    public var price: PriceDocument?
    public var note: String?

    public init(price: PriceDocument?, note: String?) {
        self.price = price
        self.note = note
    }
}
