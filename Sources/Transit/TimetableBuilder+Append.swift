import Foundation

extension TimetableBuilder {
    /// Adds a feed read alone into its own builder (a `FeedPart`), exactly as if the feed had
    /// been read into this one: its indexes (stops, routes, services, fare zones and fare feeds)
    /// moved past this builder's, its stations and stops numbered as the next feed. The import
    /// reads every feed this way, so a part kept from an earlier import merges the same as a
    /// feed parsed now.
    /// - throws: `TransitError.mixedTimeZones` when the part's zone is not the others'.
    mutating func append(_ part: TimetableBuilder) throws {
        guard let zone = part.timeZoneID else { return }  // a feed read always sets it
        try adopt(timeZone: zone, feed: part.timeZoneFeed ?? "?")
        let stopOffset = Int32(stops.count), routeOffset = Int32(routes.count), serviceOffset = Int32(services.count)
        let zoneOffset = Int32(fares.zoneNames.count), fareFeedOffset = Int32(fares.feeds.count)
        stops += part.stops
        stopFeeds += [Int](repeating: feedsBegun, count: part.stops.count)
        for (stop, station) in part.stationOfStop {
            // "<feed>/<parent_station>": the part's feed number is replaced by this one's.
            stationOfStop[stop + stopOffset] = "\(feedsBegun)/\(station.drop { $0 != "/" }.dropFirst())"
        }
        routes += part.routes
        services += part.services
        trips.reserveCapacity(trips.count + part.trips.count)
        for var trip in part.trips {
            trip.route += routeOffset
            trip.service += serviceOffset
            trip.stops = trip.stops.map { $0 + stopOffset }
            trips.append(trip)
        }
        for (pair, rule) in part.transfers {
            let from = Int64(Int32(pair >> 32) + stopOffset), to = Int64(Int32(pair & 0xFFFF_FFFF) + stopOffset)
            transfers[from << 32 | to] = rule
        }
        feeds += part.feeds
        rideShapes.merge(part.rideShapes, feed: feedsBegun)
        fares.append(part.fares, stopOffset: stopOffset, routeOffset: routeOffset, zoneOffset: zoneOffset,
                     feedOffset: fareFeedOffset)
    }
}

extension FareTable {
    /// Adds one feed's fares (`TimetableBuilder.append`), its indexes moved by the offsets.
    mutating func append(_ other: FareTable, stopOffset: Int32, routeOffset: Int32, zoneOffset: Int32, feedOffset: Int32) {
        func zone(_ z: Int32) -> Int32 { z >= 0 ? z + zoneOffset : z }
        zoneNames += other.zoneNames
        stopZones += other.stopZones.map(zone)
        routeFeeds += other.routeFeeds.map { $0 + feedOffset }
        feeds += other.feeds
        fares += other.fares.map { fare in
            var fare = fare
            fare.feed += feedOffset
            fare.routes = Set(fare.routes.map { $0 + routeOffset })
            fare.originDestinations = Set(fare.originDestinations.map { ZonePair(origin: zone($0.origin), destination: zone($0.destination)) })
            fare.contains = Set(fare.contains.map(zone))
            return fare
        }
        unusableFares += other.unusableFares
        if let otherV2 = other.v2 {
            v2 = (v2 ?? []) + otherV2.map { table in
                var table = table
                table.feed += feedOffset
                table.routeNetworks = Dictionary(uniqueKeysWithValues: table.routeNetworks.map { ($0.key + routeOffset, $0.value) })
                table.stopAreas = Dictionary(uniqueKeysWithValues: table.stopAreas.map { ($0.key + stopOffset, $0.value) })
                return table
            }
        }
    }
}
