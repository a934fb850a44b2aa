import Foundation
import Planner

/// GTFS Fares v2: `fare_products.txt` and `fare_leg_rules.txt`, with `fare_transfer_rules.txt`,
/// `timeframes.txt`, `stop_areas.txt`, `route_networks.txt` and `routes.txt`'s `network_id`
/// when the feed has them. Read after the calendars, as timeframes name services. A product with
/// bad input (an amount that is not a number, a currency not ISO 4217) and every rule naming it
/// are left out and counted, as is a rule naming an unknown product or service: a left-out rule
/// can leave a price unknown, never wrong.
extension GTFSFeedReader {
    /// Both must be present for a feed's fares to be read as v2 (they are then preferred to v1).
    static let faresV2RequiredFiles = ["fare_products.txt", "fare_leg_rules.txt"]

    func readFaresV2(_ zip: ZipArchive, feed: Int32, stops: [String: Int32], routes: [String: Int32],
                     services: ServiceCalendar, builder: inout TimetableBuilder, report: inout GTFSImportReport) throws {
        var fares = FaresV2(feed: feed)
        if var table = try open(v2File: "fare_products.txt", in: zip) {
            let id = try table.require("fare_product_id"), amountColumn = try table.require("amount")
            let currencyColumn = try table.require("currency")
            var unusable: Set<String> = []
            while let row = try table.next() {
                let product = row.string(id)
                guard !product.isEmpty else { report.skip("fare_products.txt: empty fare_product_id"); continue }
                let text = row.string(amountColumn), currency = row.string(currencyColumn)
                // Negative amounts are allowed: a transfer product may be a discount.
                guard let magnitude = Money.decimal(text.hasPrefix("-") ? String(text.dropFirst()) : text) else {
                    report.skip("fare_products.txt: amount not a number (product unusable)")
                    unusable.insert(product)
                    continue
                }
                guard Money.isoCurrencies.contains(currency) else {
                    report.skip("fare_products.txt: currency not ISO 4217 (product unusable)")
                    unusable.insert(product)
                    continue
                }
                let amount = text.hasPrefix("-") ? -magnitude : magnitude
                if let known = fares.products[product], known.amount <= amount { continue }
                fares.products[product] = FaresV2.Product(amount: amount, currency: currency)
            }
            for product in unusable { fares.products.removeValue(forKey: product) }
            report.rowsRead["fare_products.txt", default: 0] += table.rowsRead
        }
        if var table = try open(v2File: "routes.txt", in: zip), let network = table.column("network_id") {
            let id = try table.require("route_id")
            while let row = try table.next() {
                if let route = routes[row.string(id)], let name = row.optionalString(network) { fares.routeNetworks[route] = name }
            }
        }
        if var table = try open(v2File: "route_networks.txt", in: zip) {
            let network = try table.require("network_id"), id = try table.require("route_id")
            while let row = try table.next() {
                guard let route = routes[row.string(id)] else { report.skip("route_networks.txt: unknown route_id"); continue }
                fares.routeNetworks[route] = row.string(network)
            }
            report.rowsRead["route_networks.txt", default: 0] += table.rowsRead
        }
        if var table = try open(v2File: "stop_areas.txt", in: zip) {
            let area = try table.require("area_id"), id = try table.require("stop_id")
            while let row = try table.next() {
                guard let stop = stops[row.string(id)] else { report.skip("stop_areas.txt: unknown stop_id"); continue }
                fares.stopAreas[stop, default: []].append(row.string(area))
            }
            report.rowsRead["stop_areas.txt", default: 0] += table.rowsRead
        }
        if var table = try open(v2File: "timeframes.txt", in: zip) {
            let group = try table.require("timeframe_group_id"), service = try table.require("service_id")
            let startColumn = table.column("start_time"), endColumn = table.column("end_time")
            while let row = try table.next() {
                guard let days = services.service(row.string(service)) else {
                    report.skip("timeframes.txt: unknown service_id (timeframe unusable)"); continue
                }
                let startText = row.string(startColumn), endText = row.string(endColumn)
                guard let start = startText.isEmpty ? 0 : RealtimeTripIndex.seconds(clock: startText),
                      let end = endText.isEmpty ? 86_400 : RealtimeTripIndex.seconds(clock: endText), start < end, end <= 86_400 else {
                    report.skip("timeframes.txt: start_time or end_time not a time of day (timeframe unusable)"); continue
                }
                fares.timeframes[row.string(group), default: []].append(
                    FaresV2.Timeframe(start: start, end: end, firstDay: days.firstDay, words: days.words))
            }
            report.rowsRead["timeframes.txt", default: 0] += table.rowsRead
        }
        if var table = try open(v2File: "fare_leg_rules.txt", in: zip) {
            let product = try table.require("fare_product_id")
            let group = table.column("leg_group_id"), network = table.column("network_id")
            let fromArea = table.column("from_area_id"), toArea = table.column("to_area_id")
            let fromTimeframe = table.column("from_timeframe_group_id"), toTimeframe = table.column("to_timeframe_group_id")
            let priority = table.column("rule_priority")
            while let row = try table.next() {
                guard fares.products[row.string(product)] != nil else {
                    report.skip("fare_leg_rules.txt: unknown or unusable fare_product_id (rule unusable)"); continue
                }
                let timeframes = [row.optionalString(fromTimeframe), row.optionalString(toTimeframe)].compactMap { $0 }
                guard timeframes.allSatisfy({ fares.timeframes[$0] != nil }) else {
                    report.skip("fare_leg_rules.txt: unknown timeframe_group_id (rule unusable)"); continue
                }
                fares.legRules.append(FaresV2.LegRule(
                    group: row.optionalString(group), network: row.optionalString(network),
                    fromArea: row.optionalString(fromArea), toArea: row.optionalString(toArea),
                    fromTimeframe: row.optionalString(fromTimeframe), toTimeframe: row.optionalString(toTimeframe),
                    product: row.string(product), priority: row.int(priority)))
            }
            report.rowsRead["fare_leg_rules.txt", default: 0] += table.rowsRead
        }
        if var table = try open(v2File: "fare_transfer_rules.txt", in: zip) {
            let type = try table.require("fare_transfer_type")
            let from = table.column("from_leg_group_id"), to = table.column("to_leg_group_id")
            let count = table.column("transfer_count"), limit = table.column("duration_limit")
            let limitType = table.column("duration_limit_type"), product = table.column("fare_product_id")
            while let row = try table.next() {
                guard let transferType = row.int(type), (0...2).contains(transferType) else {
                    report.skip("fare_transfer_rules.txt: fare_transfer_type not 0, 1 or 2 (rule unusable)"); continue
                }
                let countText = row.string(count)
                let transfers: Int? = countText == "-1" ? -1 : row.int(count)
                guard countText.isEmpty || transfers.map({ $0 == -1 || $0 >= 1 }) ?? false else {
                    report.skip("fare_transfer_rules.txt: transfer_count not -1 or a positive number (rule unusable)"); continue
                }
                let limitText = row.string(limit)
                guard limitText.isEmpty || row.int(limit) != nil, limitText.isEmpty || (0...3).contains(row.int(limitType) ?? -1) else {
                    report.skip("fare_transfer_rules.txt: duration_limit or duration_limit_type unusable (rule unusable)"); continue
                }
                let productID = row.optionalString(product)
                if let productID, fares.products[productID] == nil {
                    report.skip("fare_transfer_rules.txt: unknown or unusable fare_product_id (rule unusable)"); continue
                }
                fares.transferRules.append(FaresV2.TransferRule(
                    fromGroup: row.optionalString(from), toGroup: row.optionalString(to), count: transfers,
                    durationLimit: row.int(limit), durationType: row.int(limitType) ?? 0, transferType: transferType,
                    product: productID))
            }
            report.rowsRead["fare_transfer_rules.txt", default: 0] += table.rowsRead
        }
        builder.fares.v2 = (builder.fares.v2 ?? []) + [fares]
    }

    private func open(v2File file: String, in zip: ZipArchive) throws -> GTFSTable? {
        try GTFSTable(zip: zip, file: file, feed: feedName, memory: memory)
    }
}
