import Foundation
import Planner

/// The price of rides under one feed's GTFS Fares v2: each ride is a fare leg priced by the
/// leg rule that matches it (its network, the areas of its boarding and alighting stops, the
/// timeframes of its departure and arrival), and consecutive rides share one fare (a
/// sub-journey) when a transfer rule joins each ride's leg group to the next one's within its
/// duration and transfer count. As in v1, the cheapest way to cut the rides into such runs wins.
///
/// A rule's empty field matches what no other rule names (the spec's default), unless some rule
/// has a `rule_priority`: then empty matches everything and only the highest priority counts.
/// A transfer rule's `duration_limit` is counted from the run's first ride.
enum FarePricingV2 {
    static func tickets(_ rides: [FareRide], fares: FaresV2, timeZone: TimeZone) -> FareTickets {
        var legs: [(group: String?, price: FaresV2.Product)] = []
        for (position, ride) in rides.enumerated() {
            guard let leg = leg(ride, fares: fares, timeZone: timeZone) else {
                return .unknown("price unknown (no fare leg rule matches ride \(position + 1))")
            }
            legs.append(leg)
        }
        guard let currency = legs.first?.price.currency, legs.allSatisfy({ $0.price.currency == currency }) else {
            return .unknown("price unknown (fares in several currencies cover it)")
        }
        // From the last ride, as v1 (`FarePricing`): among runs of one price the first covers
        // the most rides, so a fare held is used before another is bought.
        var cost = [Decimal?](repeating: nil, count: rides.count + 1)
        var runEnd = [Int](repeating: 0, count: rides.count + 1)
        cost[rides.count] = 0
        for first in stride(from: rides.count - 1, through: 0, by: -1) {
            for end in (first + 1)...rides.count {
                guard let after = cost[end],
                      let run = runCost(rides, legs, first..<end, fares: fares, currency: currency) else { continue }
                if cost[first].map({ after + run < $0 || (after + run == $0 && end > runEnd[first]) }) ?? true {
                    cost[first] = after + run
                    runEnd[first] = end
                }
            }
        }
        guard let total = cost[0] else { return .unknown("price unknown (no fare covers this trip)") }
        var tickets: [FareTickets.Ticket] = []
        var first = 0
        while first < rides.count {
            let end = runEnd[first]
            tickets.append(FareTickets.Ticket(price: Money(amount: (cost[first] ?? 0) - (cost[end] ?? 0), currency: currency),
                                              rides: first..<end))
            first = end
        }
        return FareTickets(tickets: tickets, quote: PriceQuote(price: Money(amount: total, currency: currency)))
    }

    /// The leg group and the cheapest product of the leg rules that match `ride`; nil when none does.
    static func leg(_ ride: FareRide, fares: FaresV2, timeZone: TimeZone) -> (group: String?, price: FaresV2.Product)? {
        let network = fares.routeNetworks[ride.route]
        let fromAreas = fares.stopAreas[ride.fromStop] ?? [], toAreas = fares.stopAreas[ride.toStop] ?? []
        func within(_ group: String, _ instant: Int) -> Bool {
            let date = Date(timeIntervalSince1970: TimeInterval(instant))
            let day = ServiceDate.localDay(of: date, in: timeZone)
            let second = instant + timeZone.secondsFromGMT(for: date) - day * 86_400
            return fares.timeframes[group]?.contains { $0.contains(day: day, second: second) } ?? false
        }
        let tests: [(KeyPath<FaresV2.LegRule, String?>, (String) -> Bool)] = [
            (\.network, { $0 == network }), (\.fromArea, fromAreas.contains), (\.toArea, toAreas.contains),
            (\.fromTimeframe, { within($0, ride.boarding) }), (\.toTimeframe, { within($0, ride.alighting) }),
        ]
        var rules = fares.legRules
        if rules.contains(where: { $0.priority != nil }) {
            rules = rules.filter { rule in tests.allSatisfy { key, matches in rule[keyPath: key].map(matches) ?? true } }
            let top = rules.map { $0.priority ?? 0 }.max()
            rules = rules.filter { ($0.priority ?? 0) == top }
        } else {
            for (key, matches) in tests { rules = narrowed(rules, key, matches) }
        }
        let priced = rules.compactMap { rule in fares.products[rule.product].map { (group: rule.group, price: $0) } }
        return priced.min { $0.price.amount < $1.price.amount }
    }

    /// The rules whose `key` matches, or, when none names a match, those that leave it empty.
    private static func narrowed<Rule>(_ rules: [Rule], _ key: KeyPath<Rule, String?>, _ matches: (String) -> Bool) -> [Rule] {
        let exact = rules.filter { $0[keyPath: key].map(matches) ?? false }
        return exact.isEmpty ? rules.filter { $0[keyPath: key] == nil } : exact
    }

    /// What rides `run` cost as one sub-journey: the first leg's product and, for each transfer,
    /// what its rule's `fare_transfer_type` adds; nil when some transfer has no rule that allows it.
    private static func runCost(_ rides: [FareRide], _ legs: [(group: String?, price: FaresV2.Product)], _ run: Range<Int>,
                                fares: FaresV2, currency: String) -> Decimal? {
        var total = legs[run.lowerBound].price.amount
        let first = rides[run.lowerBound]
        for k in run.dropFirst() {
            let transfers = k - run.lowerBound
            let ride = rides[k]
            var candidates = narrowed(fares.transferRules, \.fromGroup) { $0 == legs[k - 1].group }
            candidates = narrowed(candidates, \.toGroup) { $0 == legs[k].group }
            let allowed = candidates.filter { rule in
                if let count = rule.count, count >= 0, transfers > count { return false }
                if rule.count == nil, transfers > 1, rule.fromGroup == rule.toGroup { return false }
                guard let limit = rule.durationLimit else { return true }
                let from = rule.durationType >= 2 ? first.alighting : first.boarding
                let to = rule.durationType == 0 || rule.durationType == 3 ? ride.alighting : ride.boarding
                return to - from <= limit
            }
            let added = allowed.compactMap { rule -> Decimal? in
                let product: Decimal
                if let id = rule.product {
                    guard let found = fares.products[id], found.currency == currency else { return nil }
                    product = found.amount
                } else {
                    product = 0
                }
                switch rule.transferType {
                case 1: return product + legs[k].price.amount
                case 2: return k == run.lowerBound + 1 ? product - legs[run.lowerBound].price.amount : product
                default: return product
                }
            }
            guard let cheapest = added.min() else { return nil }
            total += cheapest
        }
        return total
    }
}
