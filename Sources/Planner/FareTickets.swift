import Foundation

/// The tickets that pay for a run of rides (a leg's, or a whole plan's), as the fare engine
/// chose them: the cheapest set that covers every ride, by zone and by time.
public struct FareTickets: Hashable, Sendable {
    /// One ticket, bought at the first of its rides and valid for the rides after it in `rides`.
    public struct Ticket: Hashable, Sendable {
        public var price: Money
        /// Positions of the rides it covers in the list that was priced (consecutive).
        public var rides: Range<Int>

        public init(price: Money, rides: Range<Int>) {
            self.price = price
            self.rides = rides
        }
    }

    /// In ride order; empty when the price is unknown.
    public var tickets: [Ticket]
    /// The sum of the tickets, or why no price is known.
    public var quote: PriceQuote

    public init(tickets: [Ticket], quote: PriceQuote) {
        self.tickets = tickets
        self.quote = quote
    }

    public static func unknown(_ note: String) -> FareTickets { FareTickets(tickets: [], quote: .unknown(note)) }
}
