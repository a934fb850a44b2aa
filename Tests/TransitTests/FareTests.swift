import Foundation
import Planner
import SQLite
import TestSupport
@testable import Transit
import XCTest

/// GTFS Fares v1 and v2 on small feeds written here: which fares cover a ride, transfers within a
/// fare's count and duration, feeds without fares, and bad fare input.
final class FareTests: XCTestCase {
    private let a = MiniFeed.coordinate(km: 0), b = MiniFeed.coordinate(km: 5), c = MiniFeed.coordinate(km: 10)
    private let morning = localDate(2022, 3, 2, 7, 50, zone: "UTC")

    /// A (0 km) → B (5 km) → C (10 km); R1 rides A → B at 08:00, R2 rides B → C at 08:11:30
    /// (or `secondAt`).
    private func feed(secondAt: String = "08:11:30", fares: String? = nil, rules: String? = nil) -> MiniFeed {
        var feed = MiniFeed()
        feed.stop("A", km: 0)
        feed.stop("B", km: 5)
        feed.stop("C", km: 10)
        feed.routes = [("R1", "1", 3), ("R2", "2", 3)]
        feed.trip("T1", route: "R1", [("A", "08:00:00"), ("B", "08:10:00")])
        feed.trip("U1", route: "R2", [("B", secondAt), ("C", "09:20:00")])
        if let fares { feed.extraFiles["fare_attributes.txt"] = "fare_id,price,currency_type,payment_method,transfers,transfer_duration\n" + fares }
        if let rules { feed.extraFiles["fare_rules.txt"] = "fare_id,route_id,origin_id,destination_id,contains_id\n" + rules }
        return feed
    }

    private func price(_ feed: MiniFeed, from: Coordinate, to: Coordinate) throws -> (PriceQuote?, GTFSImportReport) {
        let fixture = try FeedFixture()
        let (router, report) = try fixture.router(feed.files)
        let result = try router.leg(from: from, to: to, timing: .departAt(morning), pace: .normal, accessRadius: 100)
        return (result.best.price, report)
    }

    private func euros(_ quote: PriceQuote?) -> String {
        guard let quote else { return "no quote" }
        guard let price = quote.price else { return "unknown: \(quote.note ?? "")" }
        return "\(price.amount) \(price.currency)"
    }

    // MARK: - Transfers

    func testATransferWithinTransferDurationTravelsOnOneTicket() throws {
        let (quote, _) = try price(feed(fares: "F,2.00,EUR,0,,1800\n"), from: a, to: c)
        XCTAssertEqual(euros(quote), "2 EUR")
    }

    func testATransferAfterTransferDurationNeedsASecondTicket() throws {
        // The second boarding is 40 minutes after the first: past the 30 minutes of the ticket.
        let (quote, _) = try price(feed(secondAt: "08:40:00", fares: "F,2.00,EUR,0,,1800\n"), from: a, to: c)
        XCTAssertEqual(euros(quote), "4 EUR")
    }

    func testAFareWithoutTransfersNeedsATicketPerRide() throws {
        let (quote, _) = try price(feed(fares: "F,2.00,EUR,0,0,\n"), from: a, to: c)
        XCTAssertEqual(euros(quote), "4 EUR")
    }

    // MARK: - Rules

    func testARouteSpecificFareCoversOnlyItsRoute() throws {
        let routeFares = feed(fares: "ONE,1.50,EUR,0,,\nTWO,2.50,EUR,0,,\n", rules: "ONE,R1,,,\nTWO,R2,,,\n")
        XCTAssertEqual(euros(try price(routeFares, from: a, to: b).0), "1.5 EUR")
        XCTAssertEqual(euros(try price(routeFares, from: b, to: c).0), "2.5 EUR")
        // No fare covers both routes: one ticket of each.
        XCTAssertEqual(euros(try price(routeFares, from: a, to: c).0), "4 EUR")
    }

    func testAnOriginDestinationFareCoversOnlyItsPair() throws {
        var zoned = feed(fares: "NEAR,2.00,EUR,0,,\nFAR,4.00,EUR,0,,\n", rules: "NEAR,,Z1,Z2,\nFAR,,Z1,Z3,\n")
        zoned.zones = ["A": "Z1", "B": "Z2", "C": "Z3"]
        zoned.stopTimes.removeAll()
        zoned.trips.removeAll()
        zoned.trip("T1", route: "R1", [("A", "08:00:00"), ("B", "08:10:00"), ("C", "08:20:00")])
        XCTAssertEqual(euros(try price(zoned, from: a, to: b).0), "2 EUR")
        XCTAssertEqual(euros(try price(zoned, from: a, to: c).0), "4 EUR")
        let (fromB, _) = try price(zoned, from: b, to: c)
        XCTAssertNil(fromB?.price)
        XCTAssertEqual(fromB?.note, "price unknown (no fare covers this trip)")
    }

    func testAZoneFareCoversARideOnlyWhenItContainsEveryZonePassed() throws {
        var zoned = feed(fares: "Z12,2.00,EUR,0,,\nZ123,3.00,EUR,0,,\n",
                         rules: "Z12,,,,Z1\nZ12,,,,Z2\nZ123,,,,Z1\nZ123,,,,Z2\nZ123,,,,Z3\n")
        zoned.zones = ["A": "Z1", "B": "Z2", "C": "Z3"]
        XCTAssertEqual(euros(try price(zoned, from: a, to: b).0), "2 EUR")
        // Through Z1, Z2 and Z3: only the three-zone ticket, not two two-zone ones (R2 is in Z2 and Z3).
        XCTAssertEqual(euros(try price(zoned, from: a, to: c).0), "3 EUR")
    }

    // MARK: - No fares

    func testAFeedWithoutFaresHasNoPriceAndSaysWhy() throws {
        let (quote, _) = try price(feed(), from: a, to: c)
        XCTAssertNotNil(quote)
        XCTAssertNil(quote?.price)
        XCTAssertEqual(quote?.note, "price unknown (the feed has no fares)")
    }

    func testAFeedWithFareProductsButNoLegRulesSaysWhatIsMissing() throws {
        var v2 = feed()
        v2.extraFiles["fare_products.txt"] = "fare_product_id,amount,currency\nP,2.00,EUR\n"
        let (quote, _) = try price(v2, from: a, to: c)
        XCTAssertNil(quote?.price)
        XCTAssertEqual(quote?.note, "price unknown (the feed's fares v2 lack fare_products.txt or fare_leg_rules.txt)")
    }

    // MARK: - Fares v2

    /// `feed` with Fares v2: products P (2.00 EUR), PEAK (3.00 EUR) and T (0.50 EUR), the
    /// `legRules` and `transferRules` rows, and a timeframe "peak" of 07:00-08:30 every day.
    private func v2Feed(secondAt: String = "08:11:30", legRules: String, transferRules: String? = nil) -> MiniFeed {
        var v2 = feed(secondAt: secondAt)
        v2.extraFiles["fare_products.txt"] = "fare_product_id,amount,currency\nP,2.00,EUR\nPEAK,3.00,EUR\nT,0.50,EUR\n"
        v2.extraFiles["fare_leg_rules.txt"] = "leg_group_id,network_id,from_timeframe_group_id,fare_product_id\n" + legRules
        v2.extraFiles["timeframes.txt"] = "timeframe_group_id,start_time,end_time,service_id\npeak,07:00:00,08:30:00,ALL\n"
        if let transferRules {
            v2.extraFiles["fare_transfer_rules.txt"] = "from_leg_group_id,to_leg_group_id,transfer_count,duration_limit,"
                + "duration_limit_type,fare_transfer_type,fare_product_id\n" + transferRules
        }
        return v2
    }

    func testAFaresV2TransferRuleJoinsTwoLegsForItsTransferProduct() throws {
        let rules = "L,L,1,3600,1,0,T\n"
        // A + AB: the first leg's 2.00 and the transfer's 0.50, not two legs' 4.00.
        XCTAssertEqual(euros(try price(v2Feed(legRules: "L,,,P\n", transferRules: rules), from: a, to: c).0), "2.5 EUR")
        // The second boarding 70 minutes after the first: past the rule's 3600 s, two legs.
        XCTAssertEqual(euros(try price(v2Feed(secondAt: "09:10:00", legRules: "L,,,P\n", transferRules: rules), from: a, to: c).0),
                       "4 EUR")
        // Without a transfer rule each leg pays.
        XCTAssertEqual(euros(try price(v2Feed(legRules: "L,,,P\n"), from: a, to: c).0), "4 EUR")
    }

    func testAFaresV2LegRuleOfATimeframeAppliesOnlyWithinIt() throws {
        let legRules = "L,,peak,PEAK\nL,,,P\n"
        // 08:11:30 is in the peak: the timeframe's rule, not the empty one.
        XCTAssertEqual(euros(try price(v2Feed(legRules: legRules), from: b, to: c).0), "3 EUR")
        // 08:40 is not: the rule without a timeframe.
        XCTAssertEqual(euros(try price(v2Feed(secondAt: "08:40:00", legRules: legRules), from: b, to: c).0), "2 EUR")
    }

    func testAFaresV2NetworkRuleCoversOnlyItsNetworksRoutes() throws {
        var networked = v2Feed(legRules: "L,bus,,P\n")
        networked.extraFiles["route_networks.txt"] = "network_id,route_id\nbus,R1\n"
        XCTAssertEqual(euros(try price(networked, from: a, to: b).0), "2 EUR")
        let (quote, _) = try price(networked, from: b, to: c)
        XCTAssertNil(quote?.price, "R2 is in no network the rules name, and no rule leaves network_id empty")
        XCTAssertEqual(quote?.note, "price unknown (no fare leg rule matches ride 1)")
    }

    // MARK: - Bad input

    /// Each bad fare is left out and counted: a valid dearer fare prices the ride, and alone the
    /// bad one gives "price unknown", never its price.
    func testEachBadFareIsUnusableAndCountedNeverPriced() throws {
        let cases: [(fare: String, rule: String?, reason: String)] = [
            ("BAD,-1.00,EUR,0,,", nil, "fare_attributes.txt: negative price (fare unusable)"),
            ("BAD,1.5€,EUR,0,,", nil, "fare_attributes.txt: price not a number (fare unusable)"),
            ("BAD,abc,EUR,0,,", nil, "fare_attributes.txt: price not a number (fare unusable)"),
            ("BAD,1.00,XYZ,0,,", nil, "fare_attributes.txt: currency_type not ISO 4217 (fare unusable)"),
            ("BAD,1.00,euro,0,,", nil, "fare_attributes.txt: currency_type not ISO 4217 (fare unusable)"),
            ("BAD,1.00,EUR,0,3,", nil, "fare_attributes.txt: transfers not 0, 1, 2 or empty (fare unusable)"),
            ("BAD,1.00,EUR,0,,", "BAD,NOPE,,,", "fare_rules.txt: unknown route_id (fare unusable)"),
            ("BAD,1.00,EUR,0,,", "BAD,,,,NOPE", "fare_rules.txt: unknown zone (fare unusable)"),
            ("BAD,1.00,EUR,0,,", "BAD,,NOPE,,", "fare_rules.txt: unknown zone (fare unusable)"),
        ]
        for bad in cases {
            let rules = (bad.rule.map { $0 + "\n" } ?? "") + "GOOD,R1,,,\nGOOD,R2,,,\n"
            let (withGood, report) = try price(feed(fares: bad.fare + "\nGOOD,5.00,EUR,0,,\n", rules: rules), from: a, to: c)
            XCTAssertEqual(euros(withGood), "5 EUR", bad.fare)
            XCTAssertEqual(report.skipped[bad.reason], 1, "\(bad.fare): \(report.skipped)")
            let (alone, _) = try price(feed(fares: bad.fare + "\n", rules: bad.rule.map { $0 + "\n" }), from: a, to: c)
            XCTAssertNil(alone?.price, bad.fare)
            XCTAssertEqual(alone?.note, "price unknown (no fare covers this trip; 1 of the feed's fares are unusable, see the import report)",
                           bad.fare)
        }
    }

    func testARuleNamingAnUnknownFareIsCounted() throws {
        let (quote, report) = try price(feed(fares: "F,2.00,EUR,0,,\n", rules: "NOPE,R1,,,\n"), from: a, to: c)
        XCTAssertEqual(report.skipped["fare_rules.txt: unknown fare_id"], 1)
        XCTAssertEqual(euros(quote), "2 EUR")
    }

    /// A region imported before fares (timetable schema 3) still loads and routes; its prices
    /// are unknown until it is imported again.
    func testATimetableOfSchemaVersionThreeLoadsWithPricesUnknown() throws {
        let fixture = try FeedFixture()
        _ = try fixture.router(feed(fares: "F,2.00,EUR,0,,\n").files)
        let db = try Database(path: fixture.regionDirectory.appendingPathComponent(TimetableStore.fileName).path)
        try db.execute("DELETE FROM meta WHERE key = 'fares'; UPDATE meta SET value = '3' WHERE key = 'schema_version'")
        db.close()
        let router = try TransitRouter(regionDirectory: fixture.regionDirectory)
        let quote = try router.leg(from: a, to: c, timing: .departAt(morning), pace: .normal, accessRadius: 100).best.price
        XCTAssertNil(quote?.price)
        XCTAssertEqual(quote?.note, "price unknown (fares not read: re-import the region)")
    }

    // MARK: - The pure rule

    /// Three single tickets beat a dearer day ticket; a fourth ride makes the day ticket cheaper.
    func testTheCheapestCombinationOfFaresIsChosen() {
        var table = FareTable()
        table.feeds = [.v1]
        table.routeFeeds = [0]
        table.fares = [
            FareTable.Fare(id: "SINGLE", feed: 0, price: 3, currency: "EUR", transfers: 0, transferDuration: nil, agencyID: nil),
            FareTable.Fare(id: "DAY", feed: 0, price: 10, currency: "EUR", transfers: nil, transferDuration: nil, agencyID: nil),
        ]
        func rides(_ n: Int) -> [FareRide] {
            (0..<n).map { FareRide(route: 0, agencyID: "", fromStop: 0, toStop: 1, zones: [-1], destinationZone: -1,
                                   boarding: $0 * 600, alighting: $0 * 600 + 300) }
        }
        XCTAssertEqual(FarePricing.cheapest(rides(3), in: table, timeZoneID: "UTC").price, Money(amount: 9, currency: "EUR"))
        XCTAssertEqual(FarePricing.cheapest(rides(4), in: table, timeZoneID: "UTC").price, Money(amount: 10, currency: "EUR"))
    }

    /// Rides boarded at 08:00, 08:20 and 09:40 on 90-minute tickets: two tickets either way,
    /// bought when the one held runs out (the first covers 08:00 and 08:20), never a second
    /// ticket while the first is still valid (trial 49).
    func testARideBoardedWhileTheTicketHeldIsValidIsCoveredByIt() {
        var table = FareTable()
        table.feeds = [.v1]
        table.routeFeeds = [0]
        table.fares = [FareTable.Fare(id: "F", feed: 0, price: 2, currency: "EUR", transfers: nil, transferDuration: 5400, agencyID: nil)]
        let rides = [0, 20, 100].map { minute in
            FareRide(route: 0, agencyID: "", fromStop: 0, toStop: 1, zones: [-1], destinationZone: -1,
                     boarding: minute * 60, alighting: minute * 60 + 600)
        }
        let tickets = FarePricing.tickets(rides, in: table, timeZoneID: "UTC")
        XCTAssertEqual(tickets.quote.price, Money(amount: 4, currency: "EUR"))
        XCTAssertEqual(tickets.tickets.map(\.rides), [0..<2, 2..<3])
    }

    func testATimetableStoredBeforeFaresSaysToReimport() {
        let ride = FareRide(route: 0, agencyID: "", fromStop: 0, toStop: 1, zones: [], destinationZone: -1, boarding: 0, alighting: 60)
        let quote = FarePricing.cheapest([ride], in: FareTable(), timeZoneID: "UTC")
        XCTAssertNil(quote.price)
        XCTAssertEqual(quote.note, "price unknown (fares not read: re-import the region)")
    }

    /// Three feeds of one region, each with fares of its own (one in another currency): a ride is
    /// priced by its own feed's fares alone (a run of two feeds' rides by one ticket of each),
    /// the other feeds' fares and currencies never counted; a journey no fare covers says so.
    func testARideIsPricedByItsOwnFeedsFaresAmongManyFeeds() {
        var table = FareTable()
        table.feeds = [.v1, .v1, .v1]
        table.routeFeeds = [0, 1, 2, 0]
        table.fares = [
            FareTable.Fare(id: "F", feed: 1, price: 30, currency: "SEK", transfers: nil, transferDuration: nil, agencyID: nil),
            FareTable.Fare(id: "F", feed: 0, price: 2, currency: "EUR", transfers: nil, transferDuration: 5400, agencyID: nil),
            FareTable.Fare(id: "F", feed: 2, price: 5, currency: "EUR", transfers: nil, transferDuration: nil, agencyID: nil),
            FareTable.Fare(id: "G", feed: 2, price: 9, currency: "SEK", transfers: nil, transferDuration: nil, agencyID: nil, routes: [2]),
        ]
        func rides(_ routes: [Int32]) -> [FareRide] {
            routes.enumerated().map { k, route in
                FareRide(route: route, agencyID: "", fromStop: 0, toStop: 1, zones: [-1], destinationZone: -1,
                         boarding: k * 600, alighting: k * 600 + 300)
            }
        }
        func price(_ routes: [Int32]) -> String {
            let quote = FarePricing.cheapest(rides(routes), in: table, timeZoneID: "UTC")
            return quote.price.map { "\($0.amount) \($0.currency)" } ?? (quote.note ?? "")
        }
        XCTAssertEqual(price([0]), "2 EUR")
        XCTAssertEqual(price([0, 3]), "2 EUR", "two routes of one feed on its one ticket")
        XCTAssertEqual(price([1]), "30 SEK")
        XCTAssertEqual(price([0, 1]), "price unknown (no fare covers this trip)", "no feed's fare covers a ride of the other's")
        XCTAssertEqual(price([2]), "price unknown (fares in several currencies cover it)", "feed 2's own two currencies")
        let tickets = FarePricing.tickets(rides([0, 2, 3]), in: table, timeZoneID: "UTC")
        XCTAssertEqual(tickets.quote.price, Money(amount: 9, currency: "EUR"), "only euros cover all three")
        XCTAssertEqual(tickets.tickets.map(\.rides), [0..<1, 1..<2, 2..<3], "a ticket per feed's run")
    }
}
