import Fetching
import Foundation
import Planner
import Streets
import Transit
import WireProtocol

/// Domain values as wire documents: instants in the region's time zone, numbers from 1.
public enum WireDocuments {
    /// A pin giving way on the wire: segments and nodes from 1, nodes by the names the plan shows.
    static func givesWay(_ judged: PinGivingWay, names: [String], timeZone: TimeZone) -> GivesWayDocument {
        func wire(_ constraint: PinGivingWay.Constraint) -> GivesWayDocument.Constraint {
            switch constraint {
            case .start(let date): .init(kind: "start", time: WireTime.string(from: date, timeZone: timeZone))
            case .leavingNow: .init(kind: "leaving_now")
            case .arrivingBy(let date): .init(kind: "arriving_by", time: WireTime.string(from: date, timeZone: timeZone))
            case .pin(let segment): .init(kind: "pin", segment: segment + 1)
            case .stayUntil(let node, let until):
                .init(kind: "stay_until", node: node + 1, name: names[node], time: WireTime.string(from: until, timeZone: timeZone))
            case .stay(let node, let seconds): .init(kind: "stay", node: node + 1, name: names[node], stayS: seconds)
            }
        }
        return GivesWayDocument(gives: wire(judged.gives), held: judged.held.map(wire))
    }

    /// Durations go on the wire in whole seconds and distances in whole metres (the planner
    /// keeps its exact numbers; a person and a script need no more).
    public static func whole(_ value: Double) -> Double { value.rounded() }

    /// Seconds to the millisecond: a short import reads "in 440 ms", not "in 0 s".
    public static func milliseconds(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    /// Whole seconds as an integer; nil for a number that is not finite.
    public static func wholeSeconds(_ seconds: Double) -> Int? { seconds.isFinite ? Int(seconds.rounded()) : nil }

    /// - parameter price: the plan priced over all its rides (`RegionRegistry.price(of:now:)`);
    ///   nil: each leg's own price, summed.
    public static func plan(_ plan: RoutePlan, id: Int64, title: String?, generation: Int64, timeZone: TimeZone,
                            now: Date, failures: [Int: RoutingError] = [:], price planPrice: PlanPrice? = nil) -> PlanDocument {
        let fallback: Date? = plan.timePreference == .leaveNow ? now : nil
        let times = plan.schedule(startingAt: fallback)
        let departures = plan.departureTimes(startingAt: fallback)
        let leaving = plan.leavingTimes(startingAt: fallback)
        func wire(_ date: Date?) -> String? { date.map { WireTime.string(from: $0, timeZone: timeZone) } }
        let missed = plan.brokenConnections(now: now)
        let reaches = plan.missedConnectionReaches(now: now)
        let changes = plan.missedChanges(now: now)
        let dues = plan.lateConnectionDues
        let names = plan.shownNodeNames
        let modeNotes = plan.modeNotes
        let nodes = plan.nodes.enumerated().map { index, node in
            NodeDocument(name: names[index], lat: node.place.coordinate.latitude, lon: node.place.coordinate.longitude,
                         time: times.indices.contains(index) ? times[index].map { WireTime.string(from: $0, timeZone: timeZone) } : nil,
                         inferred: node.isInferred, currentLocation: node.isCurrentLocation,
                         departure: node.stay == nil ? nil : wire(leaving[index]),
                         stayS: node.stay?.seconds,
                         stayUntil: { if case .until(let date)? = node.stay { return wire(date) }; return nil }(),
                         stayNote: times.indices.contains(index) && times[index].map { node.stay?.endedBefore(arrival: $0) == true } == true
                             ? "ended before the traveller gets here" : nil)
        }
        let keys = plan.segmentKeys
        let segments = keys.indices.map { index -> SegmentDocument in
            let key = keys[index]
            let legDocument = plan.legs[index].map {
                // A late or missed walk gets there its own time after it leaves, not when the plan needs it there.
                // A missed pinned walk or drive still leaves at its pin (the node says when the traveller can).
                leg($0, timeZone: timeZone,
                    departure: missed.contains(index) ? plan.pin(ofSegment: index)?.departure ?? departures[index] : departures[index],
                    arrival: missed.contains(index) ? nil : times[index + 1],
                    price: planPrice?.segments[index])
            }
            // This run's failure, else the one stored with the plan (after a restart).
            let note = plan.notes[key]
            let stored = note?.errorCode.map { WireError(code: $0, message: note?.errorMessage ?? $0) }
            let error = plan.legs[index] == nil ? failures[index].map { WireError(code: $0.code, message: $0.message) } ?? stored : nil
            // A journey missed at a change a realtime delay broke gives way to the delay, not to
            // the start or a stay the user set: no "the start at 09:10 holds, so …" (session 59).
            let givingWay = missed.contains(index) && changes[index] == nil
                ? plan.pinGivingWay(missedSegment: index, missedSegments: Set(missed)) : nil
            return SegmentDocument(mode: WireMode(plan.modes[index]), locked: plan.locks[key] != nil, leg: legDocument,
                                   error: error, missedConnection: missed.contains(index),
                                   missedAs: missed.contains(index) ? BrokenConnection(due: dues[index]).rawValue : nil,
                                   chosenLines: plan.locks[key]?.chosenLines ?? [],
                                   lineChoiceReplaced: plan.ridesAnotherLineThanChosen(segment: index),
                                   modeNote: modeNotes[index],
                                   reached: reaches[index].map { WireTime.string(from: $0, timeZone: timeZone) },
                                   missedChangeRide: changes[index].map { $0.ride + 1 },
                                   due: dues[index].map { WireTime.string(from: $0, timeZone: timeZone) },
                                   givesWay: givingWay.map { givesWay($0, names: names, timeZone: timeZone) })
        }
        let pending = plan.pending.compactMap { key, update -> PendingDocument? in
            guard let index = keys.firstIndex(of: key) else { return nil }
            let proposal: PendingDocument.Proposal = switch update.proposal {
            case .ride(let latest): .ride(leg(latest, timeZone: timeZone))
            case .nothingCatchable(let answer):
                .nothingCatchable(NoCatchableRideDocument(kind: answer.arrivingBy ? "no_earlier_ride" : "no_later_ride",
                                                          time: WireTime.string(from: answer.time, timeZone: timeZone),
                                                          walkArrival: answer.walk?.arrival.map { WireTime.string(from: $0, timeZone: timeZone) }))
            }
            return PendingDocument(segment: index + 1, selected: leg(update.selected, timeZone: timeZone), proposal: proposal)
        }.sorted { $0.segment < $1.segment }
        var document = PlanDocument(
            id: id, title: title, nodes: nodes, segments: segments,
            totalDurationS: plan.totalTravelTime.map(whole), totalDistanceM: whole(plan.totalDistance), pending: pending,
            pace: WirePace(plan.pace), timePreference: timePreference(plan.timePreference, timeZone: timeZone),
            pinnedSegment: plan.pinnedSegmentIndex.map { $0 + 1 },
            generation: generation, timeZone: WireTime.zoneName(timeZone),
            pinnedSegments: plan.pinnedSegmentIndices.map { $0 + 1 },
            pins: plan.pinnedSegmentIndices.compactMap { index in
                plan.pin(ofSegment: index).map { PinDocument(segment: index + 1, departure: WireTime.string(from: $0.shownDeparture, timeZone: timeZone)) }
            },
            price: (planPrice.map(\.total) ?? plan.price(missed: Set(missed))).map { PriceQuoteParts(price: price($0), note: $0.note) }
                ?? PriceQuoteParts(price: nil, note: "no fare"),
            access: accessLevel(plan.access))
        document.totalFollowingProposalsS = plan.totalTravelTimeFollowingTheProposals.map(whole)
        return document
    }

    /// A price on the wire; nil when unknown.
    public static func price(_ quote: PriceQuote?) -> PriceDocument? {
        quote?.price.map { PriceDocument(amount: NSDecimalNumber(decimal: $0.amount).doubleValue, currency: $0.currency) }
    }

    /// A leg; walk and car legs take their times from the plan's schedule. `price`: its share of
    /// the plan's price when the plan is priced over all its rides; nil: the leg's own.
    public static func leg(_ leg: RouteLeg, timeZone: TimeZone, departure: Date? = nil, arrival: Date? = nil,
                           price share: PriceQuote? = nil) -> LegDocument {
        let quote = share ?? leg.priceQuote
        let start = leg.departure ?? departure
        let end = leg.arrival ?? arrival ?? start.map { $0.addingTimeInterval(leg.expectedTravelTime) }
        return LegDocument(
            durationS: whole(leg.expectedTravelTime), distanceM: leg.distance.map(whole),
            departure: start.map { WireTime.string(from: $0, timeZone: timeZone) },
            arrival: end.map { WireTime.string(from: $0, timeZone: timeZone) },
            transfers: leg.transfers,
            rides: leg.rides.map { ride in
                RideDocument(line: ride.lineName, vehicle: ride.vehicle, headsign: ride.headsign,
                             from: ride.boarding.name, to: ride.alighting.name,
                             departure: WireTime.string(from: ride.boarding.time, timeZone: timeZone),
                             arrival: WireTime.string(from: ride.alighting.time, timeZone: timeZone),
                             tripID: ride.tripID, headwayS: ride.headwaySeconds, realtime: ride.boarding.isRealtime,
                             scheduledDeparture: ride.boarding.scheduledTime.map { WireTime.string(from: $0, timeZone: timeZone) },
                             scheduledArrival: ride.alighting.scheduledTime.map { WireTime.string(from: $0, timeZone: timeZone) },
                             delayS: ride.boarding.delaySeconds, arrivalDelayS: ride.alighting.delaySeconds,
                             cancelled: ride.cancelled, skippedStop: ride.skippedStopName, alerts: ride.alerts.map { alert($0, timeZone: timeZone) },
                             alertsOmitted: ride.alertsOmitted > 0 ? ride.alertsOmitted : nil,
                             fromStopID: ride.boarding.stopID, toStopID: ride.alighting.stopID)
            },
            walks: leg.walks.map { walk in
                WalkDocument(kind: walk.kind.rawValue, from: walk.fromName, to: walk.toName,
                             start: WireTime.string(from: walk.start, timeZone: timeZone),
                             durationS: whole(walk.duration), distanceM: whole(walk.distance))
            },
            walkingIsNoSlower: leg.walkingIsNoSlower,
            price: price(quote), priceNote: quote.note, accessibility: accessibility(of: leg)?.rawValue)
    }

    /// What a leg says about step-free travel: the engine's answer; a walk or transit leg
    /// computed before accessibility existed is unknown; car and bike say nothing.
    static func accessibility(of leg: RouteLeg) -> LegAccessibility? {
        leg.accessibility ?? (leg.mode == .walk || leg.mode == .transit ? .unknown : nil)
    }

    /// A plan's access setting on the wire, and back.
    public static func accessLevel(_ access: AccessNeed) -> AccessLevel {
        switch access {
        case .any: .any
        case .wheelchair: .wheelchair
        case .wheelchairStrict: .wheelchairStrict
        }
    }

    public static func alert(_ alert: ServiceAlert, timeZone: TimeZone) -> AlertDocument {
        AlertDocument(id: alert.id, header: alert.header, description: alert.description, language: alert.language,
                      url: alert.url, effect: alert.effect, cause: alert.cause,
                      activeFrom: alert.activeFrom.map { WireTime.string(from: $0, timeZone: timeZone) },
                      activeUntil: alert.activeUntil.map { WireTime.string(from: $0, timeZone: timeZone) })
    }

    public static func timePreference(_ preference: TimePreference, timeZone: TimeZone) -> TimePreferenceDocument {
        switch preference {
        case .leaveNow: TimePreferenceDocument(kind: "leave_now", time: nil)
        case .departAt(let date): TimePreferenceDocument(kind: "depart_at", time: WireTime.string(from: date, timeZone: timeZone))
        case .arriveBy(let date): TimePreferenceDocument(kind: "arrive_by", time: WireTime.string(from: date, timeZone: timeZone))
        }
    }

    public static func place(_ place: Place, note: String? = nil) -> PlaceDocument {
        PlaceDocument(name: place.name, lat: place.coordinate.latitude, lon: place.coordinate.longitude,
                      kind: place.kind?.rawValue, note: note)
    }

    /// A place typed as text, with how it matched when a search found it.
    static func place(_ resolved: ResolvedPlace) -> PlaceDocument {
        var document = place(resolved.place)
        document.match = resolved.match?.rawValue
        document.matchNote = resolved.note
        return document
    }

    /// A place typed as text that a search found, with how it matched; nil when no search was
    /// needed (`@here`, coordinates, a saved place's name).
    static func matchedPlace(_ resolved: ResolvedPlace) -> PlaceDocument? {
        resolved.match == nil ? nil : place(resolved)
    }

    /// A region as `region.list` and `status` describe it; `report` is its GTFS import's (nil for
    /// a region without transit), whose feeds show their service hours on the service day of `day`
    /// and their days left from the service day of `now`.
    public static func region(_ manifest: RegionManifest, report: GTFSImportReport?, day: Date, now: Date) -> RegionDocument {
        let box = manifest.boundingBox
        let zone = manifest.zone
        // Every feed of a region is imported together: the import is each feed's last change; its
        // last check is when a feed given by URL was last confirmed current, else the import.
        let importedAt = WireTime.string(from: manifest.importedAt, timeZone: TimeZone.current)
        let feedsChecked = manifest.sources.filter { $0.role != "osm" }.compactMap(\.origin?.fetchedAt).max()
            .map { WireTime.string(from: $0, timeZone: TimeZone.current) }
        return RegionDocument(
            name: manifest.name,
            hasTransit: manifest.hasTransit,
            timeZone: manifest.timeZone,
            timeZoneSource: manifest.timeZoneSource,
            // The machine's zone, like every other "when" column: one zone for a whole table.
            importedAt: importedAt,
            bounds: [box.minLatitude, box.minLongitude, box.maxLatitude, box.maxLongitude],
            transitFeeds: (report?.servicePeriods ?? []).map { period in
                let hours = report?.serviceHours(ofFeed: period.feed, onDayOf: day)
                // A feed imported before its hours were recorded has no service day to tell about.
                let recorded = report?.serviceSpans[period.feed] != nil
                return TransitFeedDocument(feed: period.feed, firstDate: period.firstDate, lastDate: period.lastDate,
                                           serviceDay: recorded ? report?.serviceDay(of: day) : nil,
                                           firstDeparture: hours.map { WireTime.string(from: $0.firstDeparture, timeZone: zone) },
                                           lastArrival: hours.map { WireTime.string(from: $0.lastArrival, timeZone: zone) },
                                           daysLeft: period.daysLeft(onDayOf: now, in: zone), feedEndDate: period.feedEndDate,
                                           lastCheck: feedsChecked ?? importedAt, lastChange: importedAt)
            },
            sources: manifest.sources.map(source),
            straightLineFootpaths: report.flatMap { $0.straightLineFootpaths > 0 ? $0.straightLineFootpaths : nil },
            languages: manifest.languages)
    }

    /// The zones `region(_:report:day:now:)` reads days in: the region's own (days left) and,
    /// with transit, its timetable's (`GTFSImportReport.zone`: service day and hours). The
    /// document changes with the clock only when the local day changes in one of them, which is
    /// what `status` keeps its regions part by (`RegionsStatusPart`).
    public static func regionDayZones(_ manifest: RegionManifest, report: GTFSImportReport?) -> [TimeZone] {
        [manifest.zone] + (report.map { [$0.zone] } ?? [])
    }

    /// A region's source as shown: never a URL's credentials.
    static func source(_ source: RegionSourceFile) -> RegionSourceDocument {
        RegionSourceDocument(role: source.role, source: source.origin.map { SourceURL.redacted($0.url) } ?? source.path,
                             remote: source.origin != nil, size: source.size, sha256: source.sha256,
                             etag: source.origin?.etag, lastModified: source.origin?.lastModified,
                             fetchedAt: source.origin.map { WireTime.string(from: $0.fetchedAt, timeZone: TimeZone.current) })
    }

    /// One `compare` option from the planner's answer for a mode.
    /// The figures of a `too_far` answer, for scripts: the straight-line distance and the limit, in metres.
    static func detail(of error: RoutingError) -> JSONValue? {
        guard case let .tooFar(_, straightLine, limit) = error else { return nil }
        return .object(["straight_line_m": .number(straightLine.rounded()), "limit_m": .number(limit.rounded())])
    }

    public static func compareOption(_ comparison: ModeComparison, timeZone: TimeZone, now: Date) -> CompareOption {
        guard let plan = comparison.plan else {
            let error = comparison.error.map { WireError(code: $0.code, message: $0.message, data: detail(of: $0)) }
                ?? WireError(.noRoute, "no \(comparison.mode.rawValue) route")
            return CompareOption(mode: WireMode(comparison.mode), durationS: nil, departure: nil, arrival: nil, distanceM: nil,
                                 transfers: nil, fastest: false, lines: [], error: error)
        }
        let times = plan.schedule(startingAt: plan.timePreference == .leaveNow ? now : nil)
        let legs = plan.legs.compactMap { $0 }
        let rides = legs.flatMap(\.rides)
        let quote = plan.price
        return CompareOption(
            mode: WireMode(comparison.mode), durationS: plan.totalTravelTime.map(whole),
            departure: times.first.flatMap { $0 }.map { WireTime.string(from: $0, timeZone: timeZone) },
            arrival: times.last.flatMap { $0 }.map { WireTime.string(from: $0, timeZone: timeZone) },
            distanceM: whole(plan.totalDistance), transfers: max(0, rides.count - 1), fastest: comparison.isFastest,
            lines: rides.map(\.lineName), headwaysS: rides.map(\.headwaySeconds), error: nil,
            walkingIsNoSlower: legs.contains(where: \.walkingIsNoSlower),
            rides: legs.flatMap { leg($0, timeZone: timeZone).rides },
            // A known price carries its own note (an estimate's basis) or none; "no fare" only without one.
            price: price(quote), priceNote: quote.map(\.note) ?? "no fare", priceEstimate: quote?.isEstimate ?? false,
            accessibility: LegAccessibility.least(of: legs.map(accessibility(of:)))?.rawValue)
    }
}
