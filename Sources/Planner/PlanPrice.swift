import Foundation

/// What a plan costs when its rides are priced together (a ticket bought on one segment is
/// still valid on the next), and each segment's share of it.
public struct PlanPrice: Hashable, Sendable {
    /// The plan's price: its tickets plus its car legs' estimates; nil for a plan that only walks.
    public var total: PriceQuote?
    /// Per segment: what is paid on it (the tickets bought there), and which earlier ticket
    /// covers its rides; nil where the leg's own quote stands (walk, car, no leg).
    public var segments: [PriceQuote?]

    public init(total: PriceQuote?, segments: [PriceQuote?]) {
        self.total = total
        self.segments = segments
    }
}
