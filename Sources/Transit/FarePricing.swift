import Foundation
import Planner

/// One ride as the fare rules see it.
struct FareRide: Hashable, Sendable {
    var route: Int32
    var agencyID: String
    /// The boarding and alighting stops (timetable indexes), for Fares v2's areas.
    var fromStop: Int32
    var toStop: Int32
    /// Every zone the ride passes, boarding to alighting, each once, in the order first
    /// passed (so the first is the boarding stop's); -1 for stops without one.
    var zones: [Int32]
    /// The alighting stop's zone (-1 for none).
    var destinationZone: Int32
    /// Boarding and alighting times in Unix seconds.
    var boarding: Int
    var alighting: Int
}

/// The price of a journey under GTFS Fares v1: the cheapest way to cut its rides into runs of
/// consecutive rides, each run on one ticket of a fare that covers it.
///
/// A fare covers a run when every ride is of its feed (and agency, when it names one), on one of
/// its routes (when it names any), the run starts and ends in one of its origin/destination
/// pairs (when it has any), every zone passed is one of its `contains_id` zones (when it has
/// any; a stop without a zone is in none), the run's changes are within `transfers` and every
/// boarding within `transfer_duration` of the first one.
enum FarePricing {
    /// - parameter timeZoneID: the timetable's zone, in which Fares v2 timeframes are read.
    /// - parameter units: `table`'s prices as integers (`Timetable.fareUnits`), summed faster; nil: as `Decimal`s.
    static func cheapest(_ rides: [FareRide], in table: FareTable, units: FarePriceUnits? = nil, timeZoneID: String) -> PriceQuote {
        tickets(rides, in: table, units: units, timeZoneID: timeZoneID).quote
    }

    /// The cheapest tickets for `rides` (a leg's, or every ride of a plan in order), each
    /// ticket covering a run of consecutive rides; or why no price is known.
    static func tickets(_ rides: [FareRide], in table: FareTable, units: FarePriceUnits? = nil, timeZoneID: String) -> FareTickets {
        guard !rides.isEmpty else { return .unknown("price unknown (no ride)") }
        guard table.isRead else { return .unknown("price unknown (fares not read: re-import the region)") }
        var v2Feeds: Set<Int32> = []
        for ride in rides {
            let feed = Int(table.routeFeeds.indices.contains(Int(ride.route)) ? table.routeFeeds[Int(ride.route)] : -1)
            guard table.feeds.indices.contains(feed) else { return .unknown("price unknown (fares not read: re-import the region)") }
            switch table.feeds[feed] {
            case .v1: continue
            case .v2: v2Feeds.insert(Int32(feed))
            case .none: return .unknown("price unknown (the feed has no fares)")
            case .v2Only: return .unknown("price unknown (the feed's fares v2 lack fare_products.txt or fare_leg_rules.txt)")
            }
        }
        if let feed = v2Feeds.first {
            guard v2Feeds.count == 1, rides.allSatisfy({ table.routeFeeds[Int($0.route)] == feed }) else {
                return .unknown("price unknown (rides of feeds with separate fares)")
            }
            guard let fares = table.v2?.first(where: { $0.feed == feed }) else {
                return .unknown("price unknown (fares not read: re-import the region)")
            }
            return FarePricingV2.tickets(rides, fares: fares, timeZone: ServiceDate.zone(named: timeZoneID))
        }
        // Only a fare of the rides' own feeds can cover them (`covers`): the other feeds' fares
        // are not read, nor their currencies weighed (a region of many feeds has many).
        var rideFeeds: [Int32] = []
        for ride in rides where !rideFeeds.contains(table.routeFeeds[Int(ride.route)]) { rideFeeds.append(table.routeFeeds[Int(ride.route)]) }
        var currencies: [String] = []
        // By index: looping `for fare in table.fares` would copy (retain) each fare's sets and strings.
        for f in table.fares.indices where rideFeeds.contains(table.fares[f].feed) && !currencies.contains(table.fares[f].currency) {
            currencies.append(table.fares[f].currency)
        }
        var best: FareTickets? = nil
        for currency in currencies {
            let found = if let units, units.millionths.count == table.fares.count {
                cheapest(rides, currency: currency, table: table, price: { units.millionths[$0] })
            } else {
                cheapest(rides, currency: currency, table: table, price: { table.fares[$0].price })
            }
            guard let tickets = found else { continue }
            if best != nil { return .unknown("price unknown (fares in several currencies cover it)") }
            best = tickets
        }
        if let best { return best }
        let unusable = table.unusableFares > 0 ? "; \(table.unusableFares) of the feed's fares are unusable, see the import report" : ""
        return .unknown("price unknown (no fare covers this trip\(unusable))")
    }

    /// Dynamic programming over ride positions, from the last: `cost[i]` is the cheapest price
    /// of rides `i...`, and `bought[i]` the ticket bought at ride `i` for it (its end and fare).
    /// Among sets of one price, each ticket covers as many rides as it can, first to last: the
    /// traveller buys a ticket only once the one in their pocket no longer covers the ride (three
    /// rides at 08:00, 08:20 and 09:40 on 90-minute tickets are paid at 08:00 and 09:40, not at
    /// 08:00 and 08:20 while the first is still valid).
    /// `price(f)` is fare `f`'s price as the sums are compared (`Decimal`s, or `FarePriceUnits`);
    /// the total shown is the tickets' own prices added (the same sum, exact either way).
    private static func cheapest<Price: AdditiveArithmetic & Comparable>(
        _ rides: [FareRide], currency: String, table: FareTable, price: (Int) -> Price) -> FareTickets? {
        var cost = [Price?](repeating: nil, count: rides.count + 1)
        var bought = [(end: Int, fare: Int)](repeating: (0, 0), count: rides.count + 1)
        cost[rides.count] = .zero
        for start in stride(from: rides.count - 1, through: 0, by: -1) {
            // A run is covered only by fares of its first ride's feed: the feed, a number, is
            // compared before the currency, a string.
            let feed = table.routeFeeds[Int(rides[start].route)]
            for end in (start + 1)...rides.count {
                guard let after = cost[end] else { continue }
                let run = rides[start..<end]
                // By index: looping `for fare in table.fares` would copy (retain) each fare's sets and strings.
                for f in table.fares.indices where table.fares[f].feed == feed && table.fares[f].currency == currency
                    && covers(table.fares[f], run, table: table) {
                    let total = after + price(f)
                    // A later end at the same price wins: the ticket held covers the next ride.
                    if cost[start].map({ total < $0 || (total == $0 && end > bought[start].end) }) ?? true {
                        cost[start] = total
                        bought[start] = (end, f)
                    }
                }
            }
        }
        guard cost[0] != nil else { return nil }
        var tickets: [FareTickets.Ticket] = []
        var start = 0
        while start < rides.count {
            let (end, fare) = bought[start]
            tickets.append(FareTickets.Ticket(price: Money(amount: table.fares[fare].price, currency: currency), rides: start..<end))
            start = end
        }
        let total = tickets.dropFirst().reduce(tickets.first?.price.amount ?? 0) { $0 + $1.price.amount }
        return FareTickets(tickets: tickets, quote: PriceQuote(price: Money(amount: total, currency: currency)))
    }

    static func covers(_ fare: FareTable.Fare, _ run: ArraySlice<FareRide>, table: FareTable) -> Bool {
        guard let first = run.first, let last = run.last else { return false }
        if let allowed = fare.transfers, run.count - 1 > allowed { return false }
        if let duration = fare.transferDuration, last.boarding - first.boarding > duration { return false }
        for ride in run {
            guard table.routeFeeds.indices.contains(Int(ride.route)), table.routeFeeds[Int(ride.route)] == fare.feed else { return false }
            if let agency = fare.agencyID, agency != ride.agencyID { return false }
            if !fare.routes.isEmpty && !fare.routes.contains(ride.route) { return false }
            if !fare.contains.isEmpty && !ride.zones.allSatisfy(fare.contains.contains) { return false }
        }
        if !fare.originDestinations.isEmpty {
            let origin = first.zones.first ?? -1, destination = last.destinationZone
            guard origin >= 0 || destination >= 0 else { return false }
            let matches = [FareTable.ZonePair(origin: origin, destination: destination),
                           FareTable.ZonePair(origin: origin, destination: -1),
                           FareTable.ZonePair(origin: -1, destination: destination)]
            guard matches.contains(where: { ($0.origin >= 0 || $0.destination >= 0) && fare.originDestinations.contains($0) }) else {
                return false
            }
        }
        return true
    }
}
