import Foundation

extension RoutePlan {
    /// The plan's price with each leg priced alone: its transit legs' fares plus its car legs'
    /// estimates. Walking costs nothing. Nil for a plan that only walks; unknown when a leg is
    /// missing or a part's price is unknown. `price(tickets:)` is the price over the whole plan;
    /// this is what stands when the plan's fares cannot be read together (its region is gone).
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

    /// Every ride of the plan's transit legs in order, the list `price(tickets:)` reads its
    /// tickets' ride positions against.
    public var transitRides: [TransitRide] {
        legs.indices.flatMap { index in modes[index] == .transit ? legs[index]?.rides ?? [] : [] }
    }

    /// The plan's price when `tickets` pays for `transitRides` (the fare engine's cheapest set
    /// over the whole plan): the tickets plus the car legs' estimates. Each transit segment pays
    /// for the tickets bought at its rides and says which earlier segment's ticket covers the
    /// others, and when it was bought, on the wall clock of `timeZone` ("covered by the ticket
    /// bought on segment 2 at 09:04": the traveller sees which ticket still holds, and until when).
    public func price(tickets: FareTickets, timeZone: TimeZone) -> PlanPrice {
        var segments = [PriceQuote?](repeating: nil, count: legs.count)
        var parts: [PriceQuote] = []
        // The segment (0-based) of each ride position.
        var segmentOfRide: [Int] = []
        var transitLegs: [Int] = []
        for (index, leg) in legs.enumerated() {
            switch modes[index] {
            case .transit:
                guard let leg else { parts.append(.unknown("price unknown (a leg is not computed)")); continue }
                if leg.rides.isEmpty { parts.append(leg.priceQuote) }
                segmentOfRide += Array(repeating: index, count: leg.rides.count)
                transitLegs.append(index)
            case .car:
                parts.append(legs[index]?.priceQuote ?? .unknown("price unknown (a leg is not computed)"))
            default:
                continue
            }
        }
        if !segmentOfRide.isEmpty {
            let rides = transitRides
            parts.append(tickets.quote)
            if tickets.quote.price != nil, tickets.tickets.allSatisfy({ segmentOfRide.indices.contains($0.rides.lowerBound) }) {
                for segment in transitLegs {
                    let bought = tickets.tickets.filter { segmentOfRide[$0.rides.lowerBound] == segment }
                    let earlier = tickets.tickets.compactMap { ticket -> (segment: Int, bought: Date)? in
                        let from = segmentOfRide[ticket.rides.lowerBound]
                        guard from < segment, ticket.rides.contains(where: { segmentOfRide[$0] == segment }) else { return nil }
                        return (from, rides[ticket.rides.lowerBound].boarding.time)
                    }
                    guard !bought.isEmpty || !earlier.isEmpty, let currency = tickets.quote.price?.currency else { continue }
                    let paid = Money(amount: bought.reduce(Decimal(0)) { $0 + $1.price.amount }, currency: currency)
                    let covered = earlier.map {
                        "covered by the ticket bought on segment \($0.segment + 1) at \(ShownTime.clock($0.bought, timeZone: timeZone))"
                    }.joined(separator: "; ")
                    segments[segment] = PriceQuote(price: paid, note: covered.isEmpty ? nil : covered)
                }
            }
        }
        return PlanPrice(total: PriceQuote.total(of: parts), segments: segments)
    }
}
