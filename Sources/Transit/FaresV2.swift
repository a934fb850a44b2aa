import Foundation

/// One feed's GTFS Fares v2 (`fare_products.txt`, `fare_leg_rules.txt`, `fare_transfer_rules.txt`,
/// `timeframes.txt`, with the areas and networks they name), resolved at import. Stored in the
/// region's `FareTable`.
struct FaresV2: Sendable, Hashable, Codable {
    /// The cheapest row of a `fare_product_id` (rows differ by fare media and rider category:
    /// the traveller is shown the cheapest way to pay).
    struct Product: Sendable, Hashable, Codable {
        var amount: Decimal
        var currency: String
    }

    /// One `fare_leg_rules.txt` row; nil fields were empty.
    struct LegRule: Sendable, Hashable, Codable {
        var group: String?
        var network: String?
        var fromArea: String?
        var toArea: String?
        var fromTimeframe: String?
        var toTimeframe: String?
        var product: String
        var priority: Int?
    }

    /// One `fare_transfer_rules.txt` row; nil fields were empty.
    struct TransferRule: Sendable, Hashable, Codable {
        var fromGroup: String?
        var toGroup: String?
        /// Transfers it may be applied to in a row; -1: no limit; nil: once (`from` ≠ `to`).
        var count: Int?
        /// Seconds, measured as `durationType` says from the run's first ride; nil: no limit.
        var durationLimit: Int?
        /// 0: first departure to this arrival, 1: departure to departure, 2: arrival to
        /// departure, 3: arrival to arrival.
        var durationType: Int
        /// 0: A + AB, 1: A + AB + B, 2: AB.
        var transferType: Int
        /// The transfer's own product; nil: it costs nothing.
        var product: String?
    }

    /// One `timeframes.txt` row: seconds of the local day `start..<end` on the days its service runs.
    struct Timeframe: Sendable, Hashable, Codable {
        var start: Int
        var end: Int
        var firstDay: Int
        var words: [UInt64]

        func contains(day: Int, second: Int) -> Bool {
            let offset = day - firstDay
            guard second >= start, second < end, offset >= 0, offset < words.count * 64 else { return false }
            return words[offset >> 6] & (1 << UInt64(offset & 63)) != 0
        }
    }

    /// Index of the feed in `FareTable.feeds`.
    var feed: Int32
    var products: [String: Product] = [:]
    var legRules: [LegRule] = []
    var transferRules: [TransferRule] = []
    /// Route (timetable index) → its `network_id`.
    var routeNetworks: [Int32: String] = [:]
    /// Stop (timetable index) → the `area_id`s it is in.
    var stopAreas: [Int32: [String]] = [:]
    var timeframes: [String: [Timeframe]] = [:]
}
