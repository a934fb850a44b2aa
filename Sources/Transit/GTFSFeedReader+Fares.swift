import Foundation
import Planner

/// GTFS Fares v1: `fare_attributes.txt` and `fare_rules.txt`, resolved against the feed's stops,
/// routes and agencies. A fare with bad input (a price that is negative or not a number, a
/// currency that is not ISO 4217, `transfers` outside 0/1/2/empty, a rule naming an unknown zone,
/// route or agency) is left out whole and counted: it must never give a wrong price.
extension GTFSFeedReader {
    static let fareFiles = ["fare_attributes.txt", "fare_rules.txt"]
    /// Any of these without `fare_attributes.txt` marks a feed as Fares v2 only.
    static let faresV2Files = ["fare_products.txt", "fare_leg_rules.txt", "fare_transfer_rules.txt", "fare_media.txt"]
    
    /// - parameter zones: `zone_id` of each stop kept (by its timetable index).
    /// - parameter routes: route_id → timetable index, for the routes kept.
    func readFares(_ zip: ZipArchive, names: Set<String>, zones: [Int32: String], routes: [String: Int32],
                   agencies: Set<String>, builder: inout TimetableBuilder, report: inout GTFSImportReport) throws {
        let feed = Int32(builder.fares.feeds.count)
        var zoneIndex: [String: Int32] = [:]
        for name in Set(zones.values).sorted() {
            zoneIndex[name] = Int32(builder.fares.zoneNames.count)
            builder.fares.zoneNames.append(name)
        }
        for (stop, name) in zones { builder.fares.stopZones[Int(stop)] = zoneIndex[name] ?? -1 }
        if Self.faresV2RequiredFiles.allSatisfy(names.contains) {
            builder.fares.feeds.append(.v2)  // read by `readFaresV2` once the calendars are
            return
        }
        guard var attributes = try open(fareFile: "fare_attributes.txt", in: zip) else {
            builder.fares.feeds.append(Self.faresV2Files.contains(where: names.contains) ? .v2Only : .none)
            return
        }
        builder.fares.feeds.append(.v1)
        let idColumn = try attributes.require("fare_id"), priceColumn = try attributes.require("price")
        let currencyColumn = try attributes.require("currency_type"), transfersColumn = try attributes.require("transfers")
        let durationColumn = attributes.column("transfer_duration"), agencyColumn = attributes.column("agency_id")
        var fares: [String: FareTable.Fare] = [:]
        var order: [String] = []
        var unusable: Set<String> = []
        func drop(_ id: String, _ reason: String) {
            report.skip(reason)
            fares.removeValue(forKey: id)
            unusable.insert(id)
        }
        while let row = try attributes.next() {
            let id = row.string(idColumn)
            guard !id.isEmpty else { report.skip("fare_attributes.txt: empty fare_id"); continue }
            guard fares[id] == nil, !unusable.contains(id) else { report.skip("fare_attributes.txt: duplicate fare_id"); continue }
            let priceText = row.string(priceColumn).trimmingCharacters(in: .whitespaces)
            guard let price = Money.decimal(priceText) else {
                drop(id, priceText.hasPrefix("-") ? "fare_attributes.txt: negative price (fare unusable)"
                                                  : "fare_attributes.txt: price not a number (fare unusable)")
                continue
            }
            let currency = row.string(currencyColumn)
            guard Money.isoCurrencies.contains(currency) else {
                drop(id, "fare_attributes.txt: currency_type not ISO 4217 (fare unusable)"); continue
            }
            let transfersText = row.string(transfersColumn)
            guard ["", "0", "1", "2"].contains(transfersText) else {
                drop(id, "fare_attributes.txt: transfers not 0, 1, 2 or empty (fare unusable)"); continue
            }
            let durationText = row.string(durationColumn)
            let duration = Int(durationText)
            guard durationText.isEmpty || (duration ?? -1) >= 0 else {
                drop(id, "fare_attributes.txt: transfer_duration not a number of seconds (fare unusable)"); continue
            }
            let agency = row.optionalString(agencyColumn)
            if let agency, !agencies.contains(agency) {
                drop(id, "fare_attributes.txt: unknown agency_id (fare unusable)"); continue
            }
            fares[id] = FareTable.Fare(id: id, feed: feed, price: price, currency: currency, transfers: Int(transfersText),
                                       transferDuration: duration, agencyID: agency)
            order.append(id)
        }
        report.rowsRead["fare_attributes.txt", default: 0] += attributes.rowsRead
        if var rules = try open(fareFile: "fare_rules.txt", in: zip) {
            let idColumn = try rules.require("fare_id")
            let routeColumn = rules.column("route_id"), originColumn = rules.column("origin_id")
            let destinationColumn = rules.column("destination_id"), containsColumn = rules.column("contains_id")
            while let row = try rules.next() {
                let id = row.string(idColumn)
                if unusable.contains(id) { report.skip("fare_rules.txt: rule of an unusable fare"); continue }
                guard fares[id] != nil else { report.skip("fare_rules.txt: unknown fare_id"); continue }
                var route: Int32? = nil
                if let name = row.optionalString(routeColumn) {
                    guard let index = routes[name] else { drop(id, "fare_rules.txt: unknown route_id (fare unusable)"); continue }
                    route = index
                }
                var named: [Int32?] = []
                var unknownZone = false
                for column in [originColumn, destinationColumn, containsColumn] {
                    guard let name = row.optionalString(column) else { named.append(nil); continue }
                    guard let zone = zoneIndex[name] else { unknownZone = true; break }
                    named.append(zone)
                }
                if unknownZone { drop(id, "fare_rules.txt: unknown zone (fare unusable)"); continue }
                if let route { fares[id]?.routes.insert(route) }
                if named[0] != nil || named[1] != nil {
                    fares[id]?.originDestinations.insert(FareTable.ZonePair(origin: named[0] ?? -1, destination: named[1] ?? -1))
                }
                if let zone = named[2] { fares[id]?.contains.insert(zone) }
            }
            report.rowsRead["fare_rules.txt", default: 0] += rules.rowsRead
        }
        builder.fares.fares += order.compactMap { fares[$0] }
        builder.fares.unusableFares += unusable.count
    }

    private func open(fareFile file: String, in zip: ZipArchive) throws -> GTFSTable? {
        try GTFSTable(zip: zip, file: file, feed: feedName, memory: memory)
    }
}
