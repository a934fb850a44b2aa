import Foundation
import Planner

/// One feed as the import parsed it, before it joins the others: its stops, routes, services,
/// trips, transfers, fares and shapes with indexes counted inside the feed, and what reading it
/// reported. The import keeps each feed's part beside the timetable
/// (`<region>/transit-feed-<n>.part`); a rebuild on kept files (`region update --feed`) reads
/// the part of every feed whose zip has not changed instead of parsing it again, and merges the
/// parts as the import does (`TimetableBuilder.append`), so the timetable is the same either way.
///
/// A part is trusted only for the same feed: its `Key` holds the file name, the zip's members
/// (name, size and CRC-32 from the central directory), the limits it was read under and the
/// format version; anything else, or a damaged file, and the feed is parsed again.
struct FeedPart {
    static let formatVersion: UInt32 = 1
    private static let magic: [UInt8] = Array("UMFP".utf8)

    struct Member: Codable, Hashable, Sendable {
        var name: String
        var size: UInt64
        var crc: UInt32
    }

    struct Key: Codable, Hashable {
        var format = FeedPart.formatVersion
        var feed: String
        var members: [Member]
        var limits: String

        /// - throws: what opening the zip throws (not a zip, over a limit).
        init(feed url: URL, limits: GTFSLimits) throws {
            feed = url.lastPathComponent
            members = try ZipArchive(url: url, limits: limits).memberFingerprints
            self.limits = String(describing: limits)
        }
    }

    var key: Key
    /// A builder that read this feed alone.
    var builder: TimetableBuilder
    var report: GTFSImportReport

    /// Where the part of feed `position` (1 for the first) is kept in a region version.
    static func fileURL(regionDirectory: URL, position: Int) -> URL {
        regionDirectory.appendingPathComponent("transit-feed-\(position).part")
    }

    /// The part kept at `url`, when it is this feed's (`key`) and reads whole; nil otherwise.
    static func kept(at url: URL, key: Key) -> FeedPart? {
        guard let data = FileManager.default.contents(atPath: url.path),
              let part = try? read(Array(data)), part.key == key else { return nil }
        return part
    }

    // MARK: - The file

    /// The small, irregular things as JSON; stops, trips and shapes packed after it.
    private struct Header: Codable {
        var key: Key
        var timeZoneID: String?
        var timeZoneFeed: String?
        var feeds: [FeedServicePeriod]
        var fares: FareTable
        var report: GTFSImportReport
        var stations: [Station]
        var transfers: [Transfer]

        struct Station: Codable { var stop: Int32; var station: String }
        struct Transfer: Codable { var pair: Int64; var minimumSeconds: Int?; var forbidden: Bool }
    }

    /// Writes the part to a temporary file that replaces `url` once complete (a kept part linked
    /// from the version before is replaced, never written into).
    func write(to url: URL) throws {
        let b = builder
        let header = Header(key: key, timeZoneID: b.timeZoneID, timeZoneFeed: b.timeZoneFeed, feeds: b.feeds, fares: b.fares,
                            report: report,
                            stations: b.stationOfStop.map { Header.Station(stop: $0.key, station: $0.value) },
                            transfers: b.transfers.map { Header.Transfer(pair: $0.key, minimumSeconds: $0.value.minimumSeconds,
                                                                         forbidden: $0.value.forbidden) })
        var w = FeedPartWriter()
        for byte in Self.magic { w.integer(byte) }
        w.integer(Self.formatVersion)
        do {
            w.string(String(decoding: try JSONEncoder().encode(header), as: UTF8.self))
        } catch {
            throw TransitError.storage("cannot encode the part of feed \(key.feed): \(error)")
        }
        w.integer(UInt32(b.stops.count))
        for s in b.stops {
            w.string(s.id); w.string(s.name); w.double(s.latitude); w.double(s.longitude)
            w.optionalString(s.parentStationID); w.integer(s.modeMask); w.integer(s.wheelchairBoarding)
        }
        w.integer(UInt32(b.routes.count))
        for r in b.routes {
            w.string(r.id); w.string(r.shortName); w.string(r.longName); w.integer(Int64(r.routeType)); w.string(r.agencyID)
        }
        w.integer(UInt32(b.services.count))
        for s in b.services {
            w.string(s.id); w.integer(Int64(s.firstDay)); w.integers(s.words)
        }
        w.integer(UInt32(b.trips.count))
        for t in b.trips {
            w.integer(t.route); w.integer(t.service); w.string(t.tripID); w.string(t.headsign)
            w.integers(t.stops); w.integers(t.flags); w.integers(t.sequences); w.integers(t.arrivals); w.integers(t.departures)
            w.integer(t.headwaySeconds); w.integer(t.direction); w.integer(t.wheelchair)
        }
        w.integer(UInt32(b.rideShapes.shapes.count))
        for (id, points) in b.rideShapes.shapes {
            w.string(id)
            w.integers(points.flatMap { [$0.latitude.bitPattern, $0.longitude.bitPattern] })
        }
        w.integer(UInt32(b.rideShapes.trips.values.reduce(0) { $0 + $1.count }))
        for (trip, lines) in b.rideShapes.trips {
            for line in lines { w.string(trip); w.optionalString(line.shapeID); w.optionalString(line.color) }
        }
        do {
            try Data(w.bytes).write(to: url, options: .atomic)
        } catch {
            throw TransitError.storage("cannot write the part of feed \(key.feed) to \(url.path): \(error.localizedDescription)")
        }
    }

    /// A part's indexes point inside the part, and each trip's columns have one value per stop:
    /// a damaged file must be parsed again (`corruptTimetable`), never trap the merge that
    /// indexes the timetable's arrays with them.
    private static func checkIndexes(_ b: TimetableBuilder) throws {
        func inside<T: BinaryInteger>(_ index: T, _ count: Int) -> Bool { index >= 0 && index < count }
        let stops = b.stops.count
        for trip in b.trips {
            let calls = trip.stops.count
            guard inside(trip.route, b.routes.count), inside(trip.service, b.services.count),
                  trip.stops.allSatisfy({ inside($0, stops) }), trip.flags.count == calls, trip.sequences.count == calls,
                  trip.arrivals.count == calls, trip.departures.count == calls else {
                throw TransitError.corruptTimetable("feed part: trip \(trip.tripID) names a stop, route or service the part does not hold")
            }
        }
        guard b.stationOfStop.keys.allSatisfy({ inside($0, stops) }),
              b.transfers.keys.allSatisfy({ inside($0 >> 32, stops) && inside($0 & 0xFFFF_FFFF, stops) }) else {
            throw TransitError.corruptTimetable("feed part: a station or transfer names a stop the part does not hold")
        }
    }

    static func read(_ bytes: [UInt8]) throws -> FeedPart {
        guard bytes.count >= 8, Array(bytes[0..<4]) == magic else { throw TransitError.corruptTimetable("not a feed part") }
        var r = FeedPartReader(bytes, from: 4)
        guard try r.integer(UInt32.self) == formatVersion else { throw TransitError.corruptTimetable("feed part format") }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(try r.string().utf8))
        } catch {
            throw TransitError.corruptTimetable("feed part header: \(error)")
        }
        var b = TimetableBuilder()
        b.timeZoneID = header.timeZoneID
        b.timeZoneFeed = header.timeZoneFeed
        b.feeds = header.feeds
        b.fares = header.fares
        for station in header.stations { b.stationOfStop[station.stop] = station.station }
        for t in header.transfers {
            b.transfers[t.pair] = TimetableBuilder.TransferRule(minimumSeconds: t.minimumSeconds, forbidden: t.forbidden)
        }
        for _ in 0..<Int(try r.integer(UInt32.self)) {
            b.stops.append(Timetable.Stop(id: try r.string(), name: try r.string(), latitude: try r.double(), longitude: try r.double(),
                                          parentStationID: try r.optionalString(), modeMask: try r.integer(),
                                          wheelchairBoarding: try r.integer()))
        }
        b.stopFeeds = [Int](repeating: 1, count: b.stops.count)
        for _ in 0..<Int(try r.integer(UInt32.self)) {
            b.routes.append(Timetable.Route(id: try r.string(), shortName: try r.string(), longName: try r.string(),
                                            routeType: Int(try r.integer(Int64.self)), agencyID: try r.string()))
        }
        for _ in 0..<Int(try r.integer(UInt32.self)) {
            b.services.append(Timetable.Service(id: try r.string(), firstDay: Int(try r.integer(Int64.self)), words: try r.integers()))
        }
        let tripCount = Int(try r.integer(UInt32.self))
        b.trips.reserveCapacity(tripCount)
        for _ in 0..<tripCount {
            b.trips.append(TimetableBuilder.RawTrip(
                route: try r.integer(), service: try r.integer(), tripID: try r.string(), headsign: try r.string(),
                stops: try r.integers(), flags: try r.integers(), sequences: try r.integers(), arrivals: try r.integers(),
                departures: try r.integers(), headwaySeconds: try r.integer(), direction: try r.integer(), wheelchair: try r.integer()))
        }
        for _ in 0..<Int(try r.integer(UInt32.self)) {
            let id = try r.string()
            let values: [UInt64] = try r.integers()
            b.rideShapes.shapes[id] = stride(from: 0, to: values.count - 1, by: 2).map {
                Coordinate(latitude: Double(bitPattern: values[$0]), longitude: Double(bitPattern: values[$0 + 1]))
            }
        }
        for _ in 0..<Int(try r.integer(UInt32.self)) {
            b.rideShapes.trips[try r.string(), default: []].append(RideShapeTable.TripLine(shapeID: try r.optionalString(),
                                                                                          color: try r.optionalString()))
        }
        guard r.isAtEnd else { throw TransitError.corruptTimetable("feed part: bytes past its end") }
        try checkIndexes(b)
        return FeedPart(key: header.key, builder: b, report: header.report)
    }
}
