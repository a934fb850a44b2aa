import Foundation

/// Reads one GTFS zip into a `TimetableBuilder`, skipping and counting what can't be used.
///
/// Every file is streamed; required files and columns are checked before any row is kept,
/// so a broken feed fails before it changes anything.
struct GTFSFeedReader {
    static let requiredFiles = ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"]
    /// Every file the reader opens; only these count towards the feed's size limits.
    static let filesRead = requiredFiles + ["calendar.txt", "calendar_dates.txt", "frequencies.txt", "transfers.txt", "shapes.txt",
                                            "feed_info.txt"] + fareFiles

    let url: URL
    var limits = GTFSLimits()
    /// The import's memory budget, checked while rows stream in.
    var memory: ImportMemoryBudget? = nil
    var feedName: String { url.lastPathComponent }

    private struct StopTimeRow {
        var trip: Int32
        var sequence: Int32
        var stop: Int32
        var arrival: Int32     // -1 when empty
        var departure: Int32   // -1 when empty
        var flags: UInt8
    }

    private struct PendingTrip {
        var route: Int32
        var serviceID: String
        var tripID: String
        var headsign: String
        var direction: Int?
        /// `wheelchair_accessible`: 0 unknown, 1 accessible, 2 not (`AccessibilityValue`).
        var wheelchair: UInt8
    }

    /// Reads the feed into `builder` and `report`.
    /// - throws: `TransitError` when the file is not a zip, misses a required file or column,
    ///   or goes past one of `limits`.
    func read(into builder: inout TimetableBuilder, report: inout GTFSImportReport,
              progress: @Sendable (TransitImportProgress) -> Void = { _ in }) throws {
        let zip = try ZipArchive(url: url, limits: limits)
        try zip.checkDeclaredSizes(of: Self.filesRead)
        let names = Set(zip.memberNames.map { ($0.split(separator: "/").last.map(String.init) ?? $0).lowercased() })
        for file in Self.requiredFiles where !names.contains(file) {
            throw TransitError.missingRequiredFile(feed: feedName, file: file)
        }
        if !names.contains("calendar.txt") && !names.contains("calendar_dates.txt") {
            throw TransitError.missingRequiredFile(feed: feedName, file: "calendar.txt or calendar_dates.txt")
        }

        let (timeZone, onlyAgency, agencies) = try readAgencies(zip, report: &report)
        try builder.adopt(timeZone: timeZone, feed: feedName)
        let (stopIndex, stopZones) = try readStops(zip, builder: &builder, report: &report)
        let routeIndex = try readRoutes(zip, builder: &builder, defaultAgency: onlyAgency, report: &report)
        try readFares(zip, names: names, zones: stopZones, routes: routeIndex, agencies: agencies, builder: &builder, report: &report)
        let services = try readCalendars(zip, report: &report)
        if builder.fares.feeds.last == .v2 {
            try readFaresV2(zip, feed: Int32(builder.fares.feeds.count - 1), stops: stopIndex, routes: routeIndex,
                            services: services, builder: &builder, report: &report)
        }
        var trips = try readTrips(zip, routes: routeIndex, services: services, report: &report)
        let serviceIndex = builder.addServices(services, usedBy: Set(trips.map(\.serviceID)))
        let declared = try readFeedInfo(zip, report: &report)
        if let period = services.period(of: Set(trips.map(\.serviceID))).flatMap(declared.covered) {
            let covered = FeedServicePeriod(feed: feedName, firstDay: period.lowerBound, lastDay: period.upperBound,
                                            feedEndDay: declared.feedEnd)
            report.servicePeriods.append(covered)
            builder.feeds.append(covered)
        }
        let tripIndex = Dictionary(trips.enumerated().map { ($0.element.tripID, Int32($0.offset)) }, uniquingKeysWith: { a, _ in a })
        var rows = try readStopTimes(zip, trips: tripIndex, stops: stopIndex, report: &report, progress: progress)
        let frequencies = try readFrequencies(zip, trips: tripIndex, report: &report)
        try readTransfers(zip, stops: stopIndex, builder: &builder, report: &report)
        builder.rideShapes.merge(try RideShapeTable.read(zip, feed: feedName, memory: memory, report: &report), feed: builder.feedsBegun)

        // Group rows by trip, in stop_sequence order.
        let ordered = Swift.zip(rows, rows.dropFirst()).allSatisfy { ($0.trip, $0.sequence) < ($1.trip, $1.sequence) }
        if !ordered {
            rows.sort { ($0.trip, $0.sequence) < ($1.trip, $1.sequence) }
        }
        var kept = 0
        var start = 0
        var hasRows = [Bool](repeating: false, count: trips.count)
        // Per service_id: the first departure and the last arrival of its trips.
        var spans: [String: (first: Int32, last: Int32)] = [:]
        func span(_ service: String, _ departure: Int32, _ arrival: Int32) {
            let known = spans[service] ?? (departure, arrival)
            spans[service] = (min(known.first, departure), max(known.last, arrival))
        }
        while start < rows.count {
            var end = start + 1
            while end < rows.count && rows[end].trip == rows[start].trip { end += 1 }
            let t = Int(rows[start].trip)
            hasRows[t] = true
            if let timed = finishTrip(rows[start..<end], report: &report) {
                guard let service = serviceIndex[trips[t].serviceID] else {
                    report.skip("trips: service_id never runs")
                    start = end
                    continue
                }
                let pending = trips[t]
                let instances = frequencies[Int32(t)] ?? []
                if instances.isEmpty {
                    builder.addTrip(route: pending.route, service: service, tripID: pending.tripID,
                                    headsign: pending.headsign, stops: timed.stops, flags: timed.flags,
                                    arrivals: timed.arrivals, departures: timed.departures,
                                    sequences: timed.sequences, direction: pending.direction,
                                    wheelchair: pending.wheelchair)
                    span(pending.serviceID, timed.departures[0], timed.arrivals[timed.arrivals.count - 1])
                    kept += 1
                } else {
                    let origin = timed.departures[0]
                    for frequency in instances {
                        var first = frequency.start
                        while first < frequency.end {
                            let shift = first - origin
                            builder.addTrip(route: pending.route, service: service,
                                            tripID: "\(pending.tripID)@\(Self.clock(Int(first)))",
                                            headsign: pending.headsign, stops: timed.stops, flags: timed.flags,
                                            arrivals: timed.arrivals.map { $0 + shift },
                                            departures: timed.departures.map { $0 + shift },
                                            headwaySeconds: frequency.exactTimes ? nil : frequency.headway,
                                            sequences: timed.sequences, direction: pending.direction,
                                            wheelchair: pending.wheelchair)
                            span(pending.serviceID, timed.departures[0] + shift, timed.arrivals[timed.arrivals.count - 1] + shift)
                            report.frequencyTrips += 1
                            kept += 1
                            first += frequency.headway
                        }
                    }
                }
            }
            start = end
        }
        for has in hasRows where !has { report.skip("trips: no usable stop_times") }
        report.serviceSpans[feedName, default: []] += spans.sorted { $0.key < $1.key }.compactMap { id, span in
            services.service(id).map {
                ServiceSpan(firstDay: $0.firstDay, days: $0.words, firstDeparture: Int(span.first), lastArrival: Int(span.last))
            }
        }
        trips.removeAll()
        if kept == 0 { throw TransitError.noUsableTrips(feed: feedName) }
    }

    static func clock(_ seconds: Int) -> String {
        String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    // MARK: - Files

    private func open(_ file: String, in zip: ZipArchive) throws -> GTFSTable? {
        try GTFSTable(zip: zip, file: file, feed: feedName, memory: memory)
    }

    /// The feeds' time zone, and its agency_id when it has only one agency (routes.txt may then
    /// leave agency_id empty).
    /// Also every agency_id it names, for fares limited to one agency.
    private func readAgencies(_ zip: ZipArchive, report: inout GTFSImportReport) throws -> (String, String, Set<String>) {
        guard var table = try open("agency.txt", in: zip) else {
            throw TransitError.missingRequiredFile(feed: feedName, file: "agency.txt")
        }
        let zoneColumn = try table.require("agency_timezone")
        let idColumn = table.column("agency_id"), languageColumn = table.column("agency_lang")
        var zones: [String] = []
        var agencies: [String] = []
        while let row = try table.next() {
            agencies.append(row.string(idColumn))
            report.noteLanguage(row.string(languageColumn))
            let zone = row.string(zoneColumn)
            if zone.isEmpty { report.skip("agency.txt: empty agency_timezone"); continue }
            if !zones.contains(zone) { zones.append(zone) }
        }
        report.rowsRead["agency.txt", default: 0] += table.rowsRead
        guard let zone = zones.first else {
            throw TransitError.missingRequiredColumn(feed: feedName, file: "agency.txt", column: "agency_timezone")
        }
        if zones.count > 1 { throw TransitError.mixedTimeZones(zones) }
        guard TimeZone(identifier: zone) != nil else { throw TransitError.unknownTimeZone(feed: feedName, zone: zone) }
        return (zone, agencies.count == 1 ? agencies[0] : "", Set(agencies.filter { !$0.isEmpty }))
    }

    /// - returns: stop_id → timetable index, and the `zone_id` of each stop that has one.
    private func readStops(_ zip: ZipArchive, builder: inout TimetableBuilder,
                           report: inout GTFSImportReport) throws -> ([String: Int32], [Int32: String]) {
        guard var table = try open("stops.txt", in: zip) else {
            throw TransitError.missingRequiredFile(feed: feedName, file: "stops.txt")
        }
        let idColumn = try table.require("stop_id")
        let nameColumn = table.column("stop_name")
        let latColumn = table.column("stop_lat"), lonColumn = table.column("stop_lon")
        let typeColumn = table.column("location_type"), parentColumn = table.column("parent_station")
        let zoneColumn = table.column("zone_id"), wheelchairColumn = table.column("wheelchair_boarding")
        var index: [String: Int32] = [:]
        var zones: [Int32: String] = [:]
        /// Each station's own wheelchair_boarding, which its platforms with 0 or none inherit.
        var stations: [String: UInt8] = [:]
        var pendingParents: [(Int32, String)] = []
        while let row = try table.next() {
            let id = row.string(idColumn)
            guard !id.isEmpty else { report.skip("stops.txt: empty stop_id"); continue }
            let locationType = row.int(typeColumn) ?? 0
            let wheelchair = AccessibilityValue.read(row, wheelchairColumn, file: "stops.txt", column: "wheelchair_boarding",
                                                     report: &report)
            if locationType == 1 { stations[id] = wheelchair; continue }
            guard locationType == 0 else { report.skip("stops.txt: entrance, node or boarding area (not routable)"); continue }
            guard index[id] == nil else { report.skip("stops.txt: duplicate stop_id"); continue }
            guard let lat = row.double(latColumn), let lon = row.double(lonColumn),
                  lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180, !(lat == 0 && lon == 0) else {
                report.skip("stops.txt: missing or invalid stop_lat/stop_lon"); continue
            }
            let stop = builder.addStop(id: id, name: row.optionalString(nameColumn) ?? id, latitude: lat, longitude: lon,
                                       wheelchairBoarding: wheelchair)
            index[id] = stop
            if let zone = row.optionalString(zoneColumn) { zones[stop] = zone }
            if let parent = row.optionalString(parentColumn) { pendingParents.append((stop, parent)) }
        }
        for (stop, parent) in pendingParents {
            if let stationWheelchair = stations[parent] {
                builder.setParent(stop: stop, parent: parent, stationWheelchairBoarding: stationWheelchair)
            } else {
                report.skip("stops.txt: parent_station is not a station (link ignored, stop kept)")
            }
        }
        report.rowsRead["stops.txt", default: 0] += table.rowsRead
        return (index, zones)
    }

    private func readRoutes(_ zip: ZipArchive, builder: inout TimetableBuilder, defaultAgency: String,
                            report: inout GTFSImportReport) throws -> [String: Int32] {
        guard var table = try open("routes.txt", in: zip) else {
            throw TransitError.missingRequiredFile(feed: feedName, file: "routes.txt")
        }
        let idColumn = try table.require("route_id")
        let typeColumn = try table.require("route_type")
        let shortColumn = table.column("route_short_name"), longColumn = table.column("route_long_name")
        let agencyColumn = table.column("agency_id")
        var index: [String: Int32] = [:]
        while let row = try table.next() {
            let id = row.string(idColumn)
            guard !id.isEmpty else { report.skip("routes.txt: empty route_id"); continue }
            guard index[id] == nil else { report.skip("routes.txt: duplicate route_id"); continue }
            guard let type = row.int(typeColumn), type >= 0 else { report.skip("routes.txt: missing or invalid route_type"); continue }
            let short = row.string(shortColumn), long = row.string(longColumn)
            let agency = row.string(agencyColumn)
            index[id] = builder.addRoute(id: id, shortName: short.isEmpty ? long : short, longName: long, routeType: type,
                                         agencyID: agency.isEmpty ? defaultAgency : agency)
        }
        report.rowsRead["routes.txt", default: 0] += table.rowsRead
        return index
    }

    private func readCalendars(_ zip: ZipArchive, report: inout GTFSImportReport) throws -> ServiceCalendar {
        var calendar = ServiceCalendar()
        if var table = try open("calendar.txt", in: zip) {
            let id = try table.require("service_id")
            let days = try ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map { try table.require($0) }
            let startColumn = try table.require("start_date"), endColumn = try table.require("end_date")
            while let row = try table.next() {
                let service = row.string(id)
                guard !service.isEmpty else { report.skip("calendar.txt: empty service_id"); continue }
                guard let start = row.gtfsDate(startColumn), let end = row.gtfsDate(endColumn), start <= end else {
                    report.skip("calendar.txt: invalid start_date/end_date"); continue
                }
                var mask: UInt8 = 0
                var valid = true
                for (weekday, column) in days.enumerated() {
                    switch row.int(column) {
                    case 1: mask |= 1 << UInt8(weekday)
                    case 0: break
                    default: valid = false
                    }
                }
                guard valid else { report.skip("calendar.txt: weekday flag not 0 or 1"); continue }
                calendar.addWeekly(service, start: start, end: end, weekdays: mask)
            }
            report.rowsRead["calendar.txt", default: 0] += table.rowsRead
        }
        if var table = try open("calendar_dates.txt", in: zip) {
            let id = try table.require("service_id")
            let dateColumn = try table.require("date"), typeColumn = try table.require("exception_type")
            while let row = try table.next() {
                let service = row.string(id)
                guard !service.isEmpty else { report.skip("calendar_dates.txt: empty service_id"); continue }
                guard let day = row.gtfsDate(dateColumn) else { report.skip("calendar_dates.txt: invalid date"); continue }
                switch row.int(typeColumn) {
                case 1: calendar.addException(service, day: day, added: true)
                case 2: calendar.addException(service, day: day, added: false)
                default: report.skip("calendar_dates.txt: exception_type not 1 or 2")
                }
            }
            report.rowsRead["calendar_dates.txt", default: 0] += table.rowsRead
        }
        return calendar
    }

    /// `feed_info.txt`'s validity dates; none when the file or a date is absent (an invalid date
    /// is counted and ignored: the calendar still says when trips run).
    private func readFeedInfo(_ zip: ZipArchive, report: inout GTFSImportReport) throws -> FeedCoverage {
        guard var table = try open("feed_info.txt", in: zip) else { return FeedCoverage() }
        let startColumn = table.column("feed_start_date"), endColumn = table.column("feed_end_date")
        let languageColumn = table.column("feed_lang")
        var coverage = FeedCoverage()
        if let row = try table.next() {
            report.noteLanguage(row.string(languageColumn))
            for (column, path, name) in [(startColumn, \FeedCoverage.feedStart, "feed_start_date"),
                                         (endColumn, \FeedCoverage.feedEnd, "feed_end_date")] {
                guard row.optionalString(column) != nil else { continue }
                if let day = row.gtfsDate(column) {
                    coverage[keyPath: path] = day
                } else {
                    report.skip("feed_info.txt: invalid \(name) (ignored)")
                }
            }
        }
        report.rowsRead["feed_info.txt", default: 0] += table.rowsRead
        return coverage
    }

    private func readTrips(_ zip: ZipArchive, routes: [String: Int32], services: ServiceCalendar,
                           report: inout GTFSImportReport) throws -> [PendingTrip] {
        guard var table = try open("trips.txt", in: zip) else {
            throw TransitError.missingRequiredFile(feed: feedName, file: "trips.txt")
        }
        let routeColumn = try table.require("route_id"), serviceColumn = try table.require("service_id")
        let idColumn = try table.require("trip_id"), headsignColumn = table.column("trip_headsign")
        let directionColumn = table.column("direction_id"), wheelchairColumn = table.column("wheelchair_accessible")
        var trips: [PendingTrip] = []
        var seen: Set<String> = []
        while let row = try table.next() {
            let id = row.string(idColumn)
            guard !id.isEmpty else { report.skip("trips.txt: empty trip_id"); continue }
            guard !seen.contains(id) else { report.skip("trips.txt: duplicate trip_id"); continue }
            guard let route = routes[row.string(routeColumn)] else { report.skip("trips.txt: unknown route_id"); continue }
            let service = row.string(serviceColumn)
            guard services.knows(service) else { report.skip("trips.txt: unknown service_id"); continue }
            seen.insert(id)
            let direction = row.int(directionColumn).flatMap { (0...1).contains($0) ? $0 : nil }
            let wheelchair = AccessibilityValue.read(row, wheelchairColumn, file: "trips.txt", column: "wheelchair_accessible",
                                                     report: &report)
            trips.append(PendingTrip(route: route, serviceID: service, tripID: id, headsign: row.string(headsignColumn),
                                     direction: direction, wheelchair: wheelchair))
        }
        report.rowsRead["trips.txt", default: 0] += table.rowsRead
        return trips
    }

    private func readStopTimes(_ zip: ZipArchive, trips: [String: Int32], stops: [String: Int32],
                               report: inout GTFSImportReport,
                               progress: @Sendable (TransitImportProgress) -> Void) throws -> [StopTimeRow] {
        guard var table = try open("stop_times.txt", in: zip) else {
            throw TransitError.missingRequiredFile(feed: feedName, file: "stop_times.txt")
        }
        let tripColumn = try table.require("trip_id"), stopColumn = try table.require("stop_id")
        let sequenceColumn = try table.require("stop_sequence")
        let arrivalColumn = table.column("arrival_time"), departureColumn = table.column("departure_time")
        let pickupColumn = table.column("pickup_type"), dropOffColumn = table.column("drop_off_type")
        var rows: [StopTimeRow] = []
        rows.reserveCapacity(1 << 16)
        var lastTripText = ""
        var lastTrip: Int32? = nil
        while let row = try table.next() {
            if table.rowsRead % 50_000 == 0 {
                progress(TransitImportProgress(feed: feedName, step: "stop_times.txt", rows: table.rowsRead))
            }
            let tripText = row.string(tripColumn)
            if tripText != lastTripText {
                lastTripText = tripText
                lastTrip = trips[tripText]
            }
            guard let trip = lastTrip else { report.skip("stop_times.txt: unknown or skipped trip_id"); continue }
            guard let stop = stops[row.string(stopColumn)] else { report.skip("stop_times.txt: unknown stop_id"); continue }
            guard let sequence = row.int(sequenceColumn), sequence >= 0, sequence <= Int(Int32.max) else {
                report.skip("stop_times.txt: missing or invalid stop_sequence"); continue
            }
            let arrivalText = row.optionalString(arrivalColumn), departureText = row.optionalString(departureColumn)
            var arrival = row.gtfsTime(arrivalColumn), departure = row.gtfsTime(departureColumn)
            if (arrivalText != nil && arrival == nil) || (departureText != nil && departure == nil) {
                report.skip("stop_times.txt: malformed time"); continue
            }
            if arrival == nil { arrival = departure }
            if departure == nil { departure = arrival }
            var flags: UInt8 = 0
            if (row.int(pickupColumn) ?? 0) != 1 { flags |= Timetable.canBoard }
            if (row.int(dropOffColumn) ?? 0) != 1 { flags |= Timetable.canAlight }
            rows.append(StopTimeRow(trip: trip, sequence: Int32(sequence), stop: stop,
                                    arrival: Int32(arrival ?? -1), departure: Int32(departure ?? -1), flags: flags))
        }
        report.rowsRead["stop_times.txt", default: 0] += table.rowsRead
        progress(TransitImportProgress(feed: feedName, step: "stop_times.txt", rows: table.rowsRead))
        return rows
    }

    /// One `frequencies.txt` row. Unless `exact_times` is 1 (headway-based service) its runs are
    /// only an estimate of when vehicles come, and remember their headway to say so.
    private struct Frequency { var start: Int32; var end: Int32; var headway: Int32; var exactTimes: Bool }

    private func readFrequencies(_ zip: ZipArchive, trips: [String: Int32],
                                 report: inout GTFSImportReport) throws -> [Int32: [Frequency]] {
        guard var table = try open("frequencies.txt", in: zip) else { return [:] }
        let tripColumn = try table.require("trip_id"), startColumn = try table.require("start_time")
        let endColumn = try table.require("end_time"), headwayColumn = try table.require("headway_secs")
        let exactColumn = table.column("exact_times")
        var result: [Int32: [Frequency]] = [:]
        while let row = try table.next() {
            guard let trip = trips[row.string(tripColumn)] else { report.skip("frequencies.txt: unknown trip_id"); continue }
            guard let start = row.gtfsTime(startColumn), let end = row.gtfsTime(endColumn), start < end else {
                report.skip("frequencies.txt: invalid start_time/end_time"); continue
            }
            guard let headway = row.int(headwayColumn), headway > 0 else {
                report.skip("frequencies.txt: headway_secs not positive"); continue
            }
            // Empty or absent means 0 (headway-based), as the GTFS reference says.
            let exact = row.string(exactColumn)
            guard ["", "0", "1"].contains(exact) else {
                report.skip("frequencies.txt: exact_times not 0 or 1"); continue
            }
            result[trip, default: []].append(Frequency(start: Int32(start), end: Int32(end), headway: Int32(headway),
                                                       exactTimes: exact == "1"))
        }
        report.rowsRead["frequencies.txt", default: 0] += table.rowsRead
        return result
    }

    private func readTransfers(_ zip: ZipArchive, stops: [String: Int32], builder: inout TimetableBuilder,
                               report: inout GTFSImportReport) throws {
        guard var table = try open("transfers.txt", in: zip) else { return }
        let fromColumn = try table.require("from_stop_id"), toColumn = try table.require("to_stop_id")
        let typeColumn = table.column("transfer_type"), minColumn = table.column("min_transfer_time")
        let scoped = ["from_route_id", "to_route_id", "from_trip_id", "to_trip_id"].compactMap { table.column($0) }
        while let row = try table.next() {
            guard let from = stops[row.string(fromColumn)], let to = stops[row.string(toColumn)] else {
                report.skip("transfers.txt: unknown or non-routable stop_id"); continue
            }
            if scoped.contains(where: { row.optionalString($0) != nil }) {
                report.skip("transfers.txt: route- or trip-specific transfer (not supported)"); continue
            }
            let type = row.int(typeColumn) ?? 0
            switch type {
            case 0, 1: builder.addTransfer(from: from, to: to, minimumSeconds: type == 1 ? 0 : nil, forbidden: false)
            case 2:
                guard let seconds = row.int(minColumn), seconds >= 0 else {
                    report.skip("transfers.txt: transfer_type 2 without min_transfer_time"); continue
                }
                builder.addTransfer(from: from, to: to, minimumSeconds: seconds, forbidden: false)
            case 3: builder.addTransfer(from: from, to: to, minimumSeconds: nil, forbidden: true)
            default: report.skip("transfers.txt: unsupported transfer_type")
            }
        }
        report.rowsRead["transfers.txt", default: 0] += table.rowsRead
    }

    // MARK: - Trips

    private struct TimedTrip {
        var stops: [Int32]
        var flags: [UInt8]
        var sequences: [Int32]
        var arrivals: [Int32]
        var departures: [Int32]
    }

    /// Validates one trip's rows: at least two stops, unique sequences, times at both ends
    /// (missing times between timepoints are interpolated by stop count), never going back.
    private func finishTrip(_ rows: ArraySlice<StopTimeRow>, report: inout GTFSImportReport) -> TimedTrip? {
        guard rows.count >= 2 else { report.skip("trips: fewer than two stop_times"); return nil }
        var trip = TimedTrip(stops: [], flags: [], sequences: [], arrivals: [], departures: [])
        var previousSequence: Int32 = -1
        for row in rows {
            if row.sequence == previousSequence { report.skip("trips: duplicate stop_sequence"); return nil }
            previousSequence = row.sequence
            trip.stops.append(row.stop)
            trip.flags.append(row.flags)
            trip.sequences.append(row.sequence)
            trip.arrivals.append(row.arrival)
            trip.departures.append(row.departure)
        }
        let n = trip.stops.count
        guard trip.departures[0] >= 0, trip.arrivals[n - 1] >= 0 else {
            report.skip("trips: no time at first or last stop"); return nil
        }
        var i = 0
        while i < n {
            if trip.arrivals[i] >= 0 { i += 1; continue }
            var j = i
            while trip.arrivals[j] < 0 { j += 1 }
            let before = trip.departures[i - 1], after = trip.arrivals[j]
            for k in i..<j {
                let value = before + Int32((Int(after - before) * (k - i + 1)) / (j - i + 1))
                trip.arrivals[k] = value
                trip.departures[k] = value
            }
            i = j
        }
        for k in 0..<n {
            if trip.arrivals[k] > trip.departures[k] || (k > 0 && trip.departures[k - 1] > trip.arrivals[k]) {
                report.skip("trips: times go backwards"); return nil
            }
        }
        return trip
    }
}

/// calendar.txt and calendar_dates.txt combined, before they become bitsets.
struct ServiceCalendar {
    private var weekly: [String: (start: Int, end: Int, weekdays: UInt8)] = [:]
    private var exceptions: [String: [(day: Int, added: Bool)]] = [:]

    mutating func addWeekly(_ id: String, start: Int, end: Int, weekdays: UInt8) {
        weekly[id] = (start, end, weekdays)
    }

    mutating func addException(_ id: String, day: Int, added: Bool) {
        exceptions[id, default: []].append((day, added))
    }

    func knows(_ id: String) -> Bool { weekly[id] != nil || exceptions[id] != nil }

    /// The service's active days as a bitset; `nil` when it never runs.
    func service(_ id: String) -> Timetable.Service? {
        var days: Set<Int> = []
        if let w = weekly[id] {
            for day in w.start...w.end where w.weekdays & (1 << UInt8(ServiceDate.weekday(day))) != 0 { days.insert(day) }
        }
        for e in exceptions[id] ?? [] {
            if e.added { days.insert(e.day) } else { days.remove(e.day) }
        }
        guard let first = days.min(), let last = days.max() else { return nil }
        var words = [UInt64](repeating: 0, count: (last - first) / 64 + 1)
        for day in days { words[(day - first) >> 6] |= 1 << UInt64((day - first) & 63) }
        return Timetable.Service(id: id, firstDay: first, words: words)
    }

    /// First and last day any of `ids` runs.
    func period(of ids: Set<String>) -> ClosedRange<Int>? {
        var low = Int.max, high = Int.min
        for id in ids {
            guard let s = service(id), let first = s.firstActiveDay, let last = s.lastDay else { continue }
            low = min(low, first)
            high = max(high, last)
        }
        return low <= high ? low...high : nil
    }
}
