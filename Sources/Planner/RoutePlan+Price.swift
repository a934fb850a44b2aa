import Foundation

extension RoutePlan {
    /// What segment `index` is priced as: the journey the traveller can travel, never a ride
    /// nobody takes. A segment shown missed (one of `missed`, `brokenConnections`) or riding a
    /// cancelled trip is priced as the ride proposed for it (the traveller takes that one
    /// instead, never both: trial 51's plan with a missed pin cost 7.00 EUR, 3.50 once the
    /// proposal was accepted); with no ride proposed it is not priced (`unpriced`).
    enum PricedSegment {
        case planned(RouteLeg?)
        case proposed(RouteLeg, NotTaken)
        case unpriced(NotTaken)
    }

    /// Why the planned ride of a segment is not the one the traveller takes, said as it happened:
    /// a ride that runs but does not stop where planned is not "cancelled", nor is a journey
    /// missed at a change a realtime delay broke (trial 58 F1, F6).
    enum NotTaken: Hashable {
        /// Missed going forward; in an arrive-by plan, `late` (it arrives too late), as umctl says.
        case missed, late, cancelled
        /// A pinned journey caught at its start, missed at a change (`RoutePlan.missedChanges`).
        case missedChange
        /// The trip runs but does not call at this stop of the ride (`TransitRide.skippedCall`).
        case skipsStop(String)

        /// What is not taken, as the price notes name it: "missed ride", "rides not stopping at Koskipuisto D".
        func subject(plural: Bool) -> String {
            let s = plural ? "s" : ""
            return switch self {
            case .missed: "missed ride\(s)"
            case .late: "late ride\(s)"
            case .cancelled: "cancelled ride\(s)"
            case .missedChange: "journey\(s) with a missed change"
            case .skipsStop(let stop): "ride\(s) not stopping at \(stop)"
            }
        }

        /// The segment's share's note ("the missed ride priced as the one proposed").
        var pricedAsProposal: String { "the \(subject(plural: false)) priced as the one proposed" }
        /// What the note of a segment with nothing proposed starts with ("ride missed").
        var notPricedSubject: String {
            switch self {
            case .missed: "ride missed"
            case .late: "ride late"
            case .cancelled: "ride cancelled"
            case .missedChange: "change missed"
            case .skipsStop(let stop): "ride not stopping at \(stop)"
            }
        }
        /// The segment's note when nothing is proposed ("ride missed: not priced").
        var notPriced: String { "\(notPricedSubject): not priced" }
    }

    func pricedSegment(_ index: Int, missed: Set<Int>) -> PricedSegment {
        let notTaken: NotTaken
        let rides = legs[index]?.rides ?? []
        if missed.contains(index) {
            // As the plan shows it (`BrokenConnection`): late when it arrives after it is due;
            // a pinned journey with a broken change and no due is missed at the change.
            notTaken = switch BrokenConnection(due: lateConnectionDues[index]) {
            case .late: .late
            case .missed: isPinned(segment: index) && legs[index]?.brokenChange != nil ? .missedChange : .missed
            }
        } else if rides.contains(where: { $0.cancelled && $0.skippedCall == nil }) {
            notTaken = .cancelled
        } else if let stop = rides.first(where: \.cancelled)?.skippedStopName {
            notTaken = .skipsStop(stop)
        } else {
            return .planned(legs[index])
        }
        if let proposal = pendingUpdate(ofSegment: index)?.latest { return .proposed(proposal, notTaken) }
        return .unpriced(notTaken)
    }

    /// The plan's price with each leg priced alone: its transit legs' fares plus its car legs'
    /// estimates. Walking costs nothing. Nil for a plan that only walks; unknown when a leg is
    /// missing or a part's price is unknown. `price(tickets:…)` is the price over the whole plan;
    /// this is what stands when the plan's fares cannot be read together (its region is gone).
    /// `missed`: the segments shown missed (see `PricedSegment`).
    public func price(missed: Set<Int> = []) -> PriceQuote? {
        var parts: [PriceQuote] = []
        var notes = PriceNotes()
        for index in legs.indices {
            // Only fares and the car cost money; walking (and any other own-power mode) is free.
            guard modes[index] == .transit || modes[index] == .car else { continue }
            let leg: RouteLeg?
            switch pricedSegment(index, missed: missed) {
            case .planned(let planned): leg = planned
            case .proposed(let proposal, let why): leg = proposal; notes.proposed.append((index, why))
            case .unpriced(let why): notes.unpriced.append((index, why)); continue
            }
            guard let leg else { parts.append(.unknown("price unknown (a leg is not computed)")); continue }
            if modes[index] == .car, leg.price == nil { notes.carUnpriced = true; continue }
            parts.append(leg.priceQuote)
        }
        return notes.total(of: parts)
    }

    /// The plan's price with each leg priced alone, every segment as planned.
    public var price: PriceQuote? { price(missed: []) }

    /// Every ride of the plan's transit legs in order, the list `price(tickets:…)` reads its
    /// tickets' ride positions against: a missed segment's as `pricedSegment` says (its proposal's
    /// rides, or none).
    public func transitRides(missed: Set<Int> = []) -> [TransitRide] {
        legs.indices.flatMap { index -> [TransitRide] in
            guard modes[index] == .transit else { return [] }
            switch pricedSegment(index, missed: missed) {
            case .planned(let leg): return leg?.rides ?? []
            case .proposed(let proposal, _): return proposal.rides
            case .unpriced: return []
            }
        }
    }

    /// The plan's price when `tickets` pays for `transitRides(missed:)` (the fare engine's
    /// cheapest set over the whole plan): the tickets plus the car legs' estimates. Each transit
    /// segment pays for the tickets bought at its rides and says which earlier segment's ticket
    /// covers the others, and when it was bought, on the wall clock of `timeZone` ("covered by
    /// the ticket bought on segment 2 at 09:04": the traveller sees which ticket still holds, and
    /// until when). A missed segment is priced as `pricedSegment` says, and the total says so.
    public func price(tickets: FareTickets, timeZone: TimeZone, missed: Set<Int> = []) -> PlanPrice {
        var segments = [PriceQuote?](repeating: nil, count: legs.count)
        var parts: [PriceQuote] = []
        var notes = PriceNotes()
        // The segment (0-based) of each ride position.
        var segmentOfRide: [Int] = []
        var transitLegs: [Int] = []
        for index in legs.indices {
            let leg: RouteLeg?
            switch pricedSegment(index, missed: missed) {
            case .planned(let planned): leg = planned
            case .proposed(let proposal, let why):
                leg = proposal
                if modes[index] == .transit || modes[index] == .car { notes.proposed.append((index, why)) }
            case .unpriced(let why):
                if modes[index] == .transit || modes[index] == .car {
                    notes.unpriced.append((index, why))
                    segments[index] = .unknown(why.notPriced)
                }
                continue
            }
            switch modes[index] {
            case .transit:
                guard let leg else { parts.append(.unknown("price unknown (a leg is not computed)")); continue }
                if leg.rides.isEmpty { parts.append(leg.priceQuote) }
                segmentOfRide += Array(repeating: index, count: leg.rides.count)
                transitLegs.append(index)
            case .car:
                guard let leg else { parts.append(.unknown("price unknown (a leg is not computed)")); continue }
                // Driving not priced (no car cost set) is not asked, not unknown: the fares stand,
                // and the total says it leaves driving out (trial 51: the fare vanished from it).
                if leg.price == nil { notes.carUnpriced = true; continue }
                parts.append(leg.priceQuote)
                if let why = notes.why(proposed: index) { segments[index] = Self.saying(why.pricedAsProposal, leg.priceQuote) }
            default:
                continue
            }
        }
        if !segmentOfRide.isEmpty {
            let rides = transitRides(missed: missed)
            parts.append(tickets.quote)
            if tickets.quote.price != nil, tickets.tickets.allSatisfy({ segmentOfRide.indices.contains($0.rides.lowerBound) }) {
                for segment in transitLegs {
                    let bought = tickets.tickets.filter { segmentOfRide[$0.rides.lowerBound] == segment }
                    let earlier = tickets.tickets.filter {
                        segmentOfRide[$0.rides.lowerBound] < segment && $0.rides.contains { segmentOfRide[$0] == segment }
                    }
                    guard !bought.isEmpty || !earlier.isEmpty, let currency = tickets.quote.price?.currency else { continue }
                    let paid = Money(amount: bought.reduce(Decimal(0)) { $0 + $1.price.amount }, currency: currency)
                    var said = Self.ticketWords(covering: earlier, buying: bought, rides: rides,
                                                segmentOfRide: segmentOfRide, segment: segment, timeZone: timeZone)
                    if let why = notes.why(proposed: segment) { said.insert(why.pricedAsProposal, at: 0) }
                    segments[segment] = PriceQuote(price: paid, note: said.isEmpty ? nil : said.joined(separator: "; "))
                }
            }
        }
        return PlanPrice(total: notes.total(of: parts), segments: segments)
    }

    /// What a transit segment's share says about its tickets: each earlier segment's ticket that
    /// covers rides of it, when that ticket was bought ("covered by the ticket bought on segment 1
    /// at 08:00"). When the segment also buys a ticket, the rides are named, for the share is
    /// then neither all covered nor all bought: "tram 3 covered by the ticket bought on segment 1
    /// at 09:13; bus 16 at 10:44 buys a new one, 3.50 EUR" (trial 53 read "fare 3.50 EUR,
    /// covered by the ticket bought on segment 1 at 09:13" when the ticket ran out before bus 16).
    /// Empty when no earlier ticket covers the segment: its fare is what it buys.
    private static func ticketWords(covering earlier: [FareTickets.Ticket], buying bought: [FareTickets.Ticket],
                                    rides: [TransitRide], segmentOfRide: [Int], segment: Int, timeZone: TimeZone) -> [String] {
        func clock(_ ticket: FareTickets.Ticket) -> String { ShownTime.clock(rides[ticket.rides.lowerBound].boarding.time, timeZone: timeZone) }
        func line(_ ride: TransitRide) -> String { "\(ride.vehicle) \(ride.lineName)" }
        func listing(_ parts: [String]) -> String {
            parts.count > 1 ? parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1] : parts.first ?? ""
        }
        guard !earlier.isEmpty else { return [] }
        let covered = earlier.map { ticket in
            let own = ticket.rides.filter { segmentOfRide[$0] == segment }.map { line(rides[$0]) }
            let words = "covered by the ticket bought on segment \(segmentOfRide[ticket.rides.lowerBound] + 1) at \(clock(ticket))"
            return bought.isEmpty ? words : "\(listing(own)) \(words)"
        }
        return covered + bought.map { ticket in
            "\(line(rides[ticket.rides.lowerBound])) at \(clock(ticket)) buys a new one, \(ticket.price.text)"
        }
    }

    private static func saying(_ note: String, _ quote: PriceQuote) -> PriceQuote {
        var said = quote
        said.note = [note, quote.note].compactMap { $0 }.joined(separator: "; ")
        return said
    }
}

/// What a plan's total leaves out or prices otherwise than planned, said beside it: the total
/// says what it adds.
private struct PriceNotes {
    /// Segments priced as their proposal (0-based), and why.
    var proposed: [(segment: Int, why: RoutePlan.NotTaken)] = []
    /// Segments with no ride proposed, left out (0-based), and why.
    var unpriced: [(segment: Int, why: RoutePlan.NotTaken)] = []

    func why(proposed segment: Int) -> RoutePlan.NotTaken? { proposed.first { $0.segment == segment }?.why }
    /// A car leg left out: driving is priced only with a car cost set.
    var carUnpriced = false

    /// The sum of `parts` (`PriceQuote.total`), with a note naming what it leaves out or prices
    /// as proposed. A plan with nothing priced but a car leg keeps the car's "no car cost set".
    func total(of parts: [PriceQuote]) -> PriceQuote? {
        guard var total = PriceQuote.total(of: parts) else {
            if let first = unpriced.first { return .unknown(Self.notPriced(first.why, unpriced)) }
            return carUnpriced ? PriceQuote(price: nil, note: "no car cost set (--car-cost-per-km)") : nil
        }
        guard total.price != nil else { return total }
        var said: [String] = []
        var whys: [RoutePlan.NotTaken] = [.missed, .late, .cancelled, .missedChange]
        for why in (proposed + unpriced).map(\.why) where !whys.contains(why) { whys.append(why) }
        for why in whys {
            let priced = proposed.filter { $0.why == why }, left = unpriced.filter { $0.why == why }
            if priced.count == 1 { said.append("the \(why.subject(plural: false)) on \(Self.segments(priced)) priced as the one proposed") }
            if priced.count > 1 { said.append("the \(why.subject(plural: true)) on \(Self.segments(priced)) priced as the ones proposed") }
            if !left.isEmpty { said.append(Self.notPriced(why, left)) }
        }
        if carUnpriced { said.append(Self.faresOnly) }
        if let note = total.note { said.append(note) }
        total.note = said.isEmpty ? nil : said.joined(separator: "; ")
        return total
    }

    /// A car leg with no cost set is left out of a total that has fares: the total is the fares,
    /// and says so (trial 51: "price not known" hid the 3.50 EUR fare).
    static let faresOnly = "fares only: driving has no cost set (--car-cost-per-km)"

    /// "ride missed on segment 2: not priced".
    private static func notPriced(_ why: RoutePlan.NotTaken, _ left: [(segment: Int, why: RoutePlan.NotTaken)]) -> String {
        "\(why.notPricedSubject) on \(segments(left.filter { $0.why == why })): not priced"
    }

    private static func segments(_ segments: [(segment: Int, why: RoutePlan.NotTaken)]) -> String {
        (segments.count == 1 ? "segment " : "segments ") + segments.map { String($0.segment + 1) }.joined(separator: ", ")
    }
}
