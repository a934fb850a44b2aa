import Foundation
import Planner
import Synchronization

/// Answers transit questions on a region's imported timetable, which it loads once into
/// memory. Thread-safe: every query in flight works on its own scratch arrays.
///
/// ```swift
/// let router = try TransitRouter(regionDirectory: region)
/// let result = try router.leg(from: home, to: work, timing: .departAt(date), pace: .normal)
/// result.best.rides.first?.lineName // "3"
/// ```
public final class TransitRouter: Sendable {
    /// Metres: the farthest stop considered for the walk to the first or from the last stop.
    public static let defaultAccessRadius = 800.0
    /// Seconds of arrival an extra transfer must save to be taken (`JourneyChoice`).
    public static let defaultTransferPenalty = 180

    let timetable: Timetable
    let walking: any WalkingTimeEstimator
    private let grid: StopGrid
    /// One engine per walking pace, each made by the first query at its pace (`engine(_:)`),
    /// sharing their scratch arrays.
    private let engines = Mutex<[WalkingPace: Raptor]>([:])
    let scratchPool = RaptorScratchPool()
    /// Whether the engines' remaining-time bound past the table of stops reads the landmarks.
    private let readsLandmarks: Bool
    let serviceDays: ServiceDayCache
    /// Stops as the place index sees them, in timetable order.
    public let stops: [TransitStop]
    /// The GTFS-Realtime overlay in force (`applyRealtime`).
    let realtime = RealtimeState()
    /// The step-free views of this timetable, built on first use (none inside a view).
    let stepFree = StepFreeRouters()
    /// Whether this router searches a step-free view (it then has no views of its own).
    let isStepFreeView: Bool
    /// A step-free view's answer when it has no trip at all (`Timetable.whyNoStepFreeTrip`).
    let noStepFreeTrip: String?

    /// Loads the timetable imported into `regionDirectory`.
    /// - throws: `TransitError.timetableMissing` when nothing was imported, or a storage error.
    public convenience init(regionDirectory: URL, walking: any WalkingTimeEstimator = StraightLineWalking()) throws {
        let timetable = try TimetableStore(regionDirectory: regionDirectory).load()
        self.init(timetable: timetable, walking: walking)
    }

    /// - parameter readsLandmarks: whether the engines' remaining-time bound past the table of
    ///   stops reads the landmarks (`Raptor.readsLandmarks`; false only for `withNewEngines`).
    init(timetable: Timetable, walking: any WalkingTimeEstimator, stepFreeView: Bool = false, noStepFreeTrip: String? = nil,
         readsLandmarks: Bool = true) {
        self.timetable = timetable
        self.walking = walking
        isStepFreeView = stepFreeView
        self.noStepFreeTrip = noStepFreeTrip
        grid = StopGrid(stops: timetable.stops.map(\.coordinate), cellMetres: 500)
        serviceDays = ServiceDayCache(timetable: timetable)
        self.readsLandmarks = readsLandmarks
        stops = timetable.stops.map(TransitStop.init)
    }

    /// The engine for `pace`, made by its first query (under the lock, so once): a daemon whose
    /// queries walk at one pace keeps one engine's footpaths and bound graph a region, not three
    /// (issue 43: the three-city daemon kept ~0.5 MB a region for paces never asked).
    func engine(_ pace: WalkingPace) -> Raptor {
        engines.withLock { engines in
            if let made = engines[pace] { return made }
            var engine = Raptor(timetable: timetable, paceMultiplier: pace.durationMultiplier, scratchPool: scratchPool)
            engine.readsLandmarks = readsLandmarks
            engines[pace] = engine
            return engine
        }
    }

    /// The paces whose engines are made so far.
    var enginePaces: Set<WalkingPace> { engines.withLock { Set($0.keys) } }

    /// The same timetable with its fares left out (every price "fares not read"): for
    /// measuring what pricing adds to a query (`usefulmap-bench transit`).
    public func withoutFares() -> TransitRouter {
        var bare = timetable
        bare.fares = FareTable()
        return TransitRouter(timetable: bare, walking: walking)
    }

    /// The same timetable with new engines, their remaining-time tables not yet built, reading
    /// the landmarks past the table of stops or the cells' bound alone: the answers must be the
    /// same, both bounds being lower bounds (`usefulmap-bench country` compares them, and times
    /// a first query, which builds the tables).
    public func withNewEngines(readingLandmarks: Bool) -> TransitRouter {
        TransitRouter(timetable: timetable, walking: walking, readsLandmarks: readingLandmarks)
    }

    /// Each imported feed's first and last service day.
    public var servicePeriods: [FeedServicePeriod] { timetable.feeds }

    /// The agencies' time zone: service days and clock times are local to it.
    public var timeZone: TimeZone { timetable.timeZone }

    /// Approximate bytes the in-memory timetable takes.
    public var memoryBytes: Int { timetable.memoryBytes + stops.count * MemoryLayout<TransitStop>.stride }

    /// Stops within `radius` metres, nearest first, at most `limit`.
    public func nearbyStops(around coordinate: Coordinate, radius: Double, limit: Int) -> [TransitStop] {
        grid.stops(within: radius, of: coordinate).prefix(max(0, limit)).map { stops[$0.index] }
    }

    /// The footpaths from stop `stopID` (its id in the feed): each stop it can walk to for a
    /// change and the walk's seconds at a normal pace, as the import timed it; empty for an
    /// unknown stop.
    public func footpaths(from stopID: String) -> [(stop: TransitStop, walkSeconds: Int)] {
        guard let s = timetable.stopIndexByID[stopID].map(Int.init) else { return [] }
        return (Int(timetable.footStart[s])..<Int(timetable.footStart[s + 1])).map {
            (stops[Int(timetable.footTargets[$0])], Int(timetable.footWalkSeconds[$0]))
        }
    }

    /// A change walk's metres along the streets, as the import timed its footpath; nil for a
    /// change at one stop or a footpath timed as a straight line (its straight distance is shown).
    private func changeWalkMetres(from: Int32, to: Int32) -> Double? {
        let tt = timetable
        guard from != to, Int(from) + 1 < tt.footStart.count else { return nil }
        for e in Int(tt.footStart[Int(from)])..<Int(tt.footStart[Int(from) + 1]) where tt.footTargets[e] == to {
            return e < tt.footWalkMetres.count && tt.footWalkMetres[e] >= 0 ? Double(tt.footWalkMetres[e]) : nil
        }
        return nil
    }

    /// One transit leg between two points.
    /// - parameter maxTransfers: at most this many changes (rides − 1).
    /// - parameter accessRadius: metres around each end searched for stops.
    /// - parameter transferPenalty: seconds of arrival each transfer must save to be taken (`JourneyChoice`).
    /// - throws: `RoutingError.unsupportedInRegion` (no stop near an end),
    ///   `.outsideServicePeriod` (the day is outside every feed), `.noRoute` (no service).
    /// - parameter avoiding: stops (by position, within `avoidedStopMetres`) the journey must not
    ///   board, alight or change at.
    /// - parameter access: a step-free level searches the step-free view of the timetable
    ///   (`Timetable.stepFreeView`), built on the first such query.
    /// - parameter knownWalks: access and egress walks timed better than `walking` estimates them.
    /// - parameter travellerEnds: the traveller's places beyond ends that are stops inferred for
    ///   them: no stop farther than `accessRadius` from these is boarded or alighted at.
    /// - parameter riding: a line every ride must be of (`LegQuery.riding`); nil for any.
    public func leg(from origin: Coordinate, to destination: Coordinate, timing: LegTiming, pace: WalkingPace,
                    maxTransfers: Int = 4, accessRadius: Double = TransitRouter.defaultAccessRadius,
                    transferPenalty: Int = TransitRouter.defaultTransferPenalty,
                    avoiding: [Coordinate] = [], access: AccessNeed = .any,
                    knownWalks: KnownEndWalks = KnownEndWalks(), travellerEnds: TravellerEnds = TravellerEnds(),
                    riding: String? = nil) throws -> TransitJourneyResult {
        if let view = view(for: access) {
            return try view.leg(from: origin, to: destination, timing: timing, pace: pace, maxTransfers: maxTransfers,
                                accessRadius: accessRadius, transferPenalty: transferPenalty, avoiding: avoiding,
                                knownWalks: knownWalks, travellerEnds: travellerEnds, riding: riding)
        }
        return try leg(from: origin, to: destination, timing: timing, pace: pace, maxTransfers: maxTransfers, accessRadius: accessRadius,
                transferPenalty: transferPenalty, avoiding: avoiding, knownWalks: knownWalks, travellerEnds: travellerEnds,
                overlay: realtime.snapshot, line: try lineRestriction(riding))
    }

    /// The restriction to line `riding` (nil: none); `noRoute` when no route of the timetable has that name.
    private func lineRestriction(_ riding: String?) throws -> LineRestriction? {
        guard let riding else { return nil }
        guard let restriction = LineRestriction(line: riding, timetable: timetable) else {
            throw RoutingError.noRoute("no line \(riding) in the transit timetable")
        }
        return restriction
    }

    /// The departures around a time with no service from `origin` to `destination` (a search
    /// that found nothing in its horizon), found by the engine. Depart-at: the latest journey
    /// leaving before it (searched backward from a quarter of a horizon after it, so the journeys
    /// still under way then count) and the first one leaving after the horizon, searched a
    /// horizon at a time, up to three (36 hours). Arrive-by: the latest journey arriving by the
    /// deadline, searched back from the deadline itself over three horizons (36 hours), with its
    /// arrival; it leaves before the horizon searched but may arrive inside it (tram 3 at 11:34
    /// arrives 11:56, before a 23:33 deadline: searched by a deadline a horizon earlier, 11:33,
    /// the ride named was tram 3 at 11:04, trial 54). And the one arriving first after the
    /// deadline, with its arrival: what the traveller can do instead. It may leave
    /// before the deadline (trial 53: "the next is bus 6 at 06:30", the first leaving after
    /// 06:10, when bus 6 at 06:10 arrives 20 minutes sooner), so it is searched from half a
    /// horizon before (none searched arrives by the deadline), else from the deadline. Each is
    /// nil when none is found. Asked only after a search found nothing, so an answer costs
    /// nothing more.
    private func departuresAround(_ anchor: Date, arrivingBy: Bool, from origin: Coordinate, to destination: Coordinate,
                                  pace: WalkingPace, maxTransfers: Int, accessRadius: Double, transferPenalty: Int,
                                  avoiding: [Coordinate], knownWalks: KnownEndWalks, travellerEnds: TravellerEnds,
                                  overlay: RealtimeOverlay?, line: LineRestriction?)
        -> (last: TransitRide?, lastArrival: Date?, next: TransitRide?, arrival: Date?) {
        // Named by the first ride, whose time is the timetable's (the door's time rests on a walk estimate).
        func journey(_ timing: LegTiming, horizon: Int = Raptor.defaultHorizon) -> RouteLeg? {
            let found = try? leg(from: origin, to: destination, timing: timing, pace: pace, maxTransfers: maxTransfers,
                                 accessRadius: accessRadius, transferPenalty: transferPenalty, avoiding: avoiding,
                                 knownWalks: knownWalks, travellerEnds: travellerEnds, overlay: overlay, line: line,
                                 horizon: horizon, explainingNoService: false)
            return found?.best
        }
        func departure(_ timing: LegTiming) -> TransitRide? { journey(timing)?.rides.first }
        let horizon = TimeInterval(Raptor.defaultHorizon)
        if arrivingBy {
            let last = journey(.arriveBy(anchor), horizon: 3 * Raptor.defaultHorizon).flatMap { $0.rides.isEmpty ? nil : $0 }
            let arriving = [anchor.addingTimeInterval(-horizon / 2), anchor].lazy.compactMap { journey(.departAt($0)) }
                .first { ($0.arrival ?? anchor) > anchor && !$0.rides.isEmpty }
            return (last?.rides.first, last?.arrival, arriving?.rides.first, arriving?.arrival)
        }
        let last = departure(.arriveBy(anchor.addingTimeInterval(horizon / 4))).flatMap { $0.boarding.time <= anchor ? $0 : nil }
        var next: TransitRide?
        for step in 1...3 where next == nil {
            next = departure(.departAt(anchor.addingTimeInterval(horizon * Double(step))))
        }
        return (last, nil, next, nil)
    }

    /// `HH:MM` on the timetable's wall clock, with " +1d" (" -1d" …) when its date is not `day`'s
    /// and that date after it: "06:05 +1d (2022-01-13)".
    private func clock(_ date: Date, onDayOf day: Int) -> String {
        let (local, time) = ServiceDate.wallClock(of: date, in: timetable.timeZone)
        let shift = local - day
        guard shift != 0 else { return time }
        return "\(time) \(shift > 0 ? "+" : "-")\(abs(shift))d (\(ServiceDate.iso(day + shift)))"
    }

    /// `leg` on one realtime overlay (nil: the timetable alone), taken once by the caller so
    /// that the whole query sees one.
    private func leg(from origin: Coordinate, to destination: Coordinate, timing: LegTiming, pace: WalkingPace,
                     maxTransfers: Int, accessRadius: Double, transferPenalty: Int, avoiding: [Coordinate],
                     knownWalks: KnownEndWalks, travellerEnds: TravellerEnds, overlay fullOverlay: RealtimeOverlay?,
                     line: LineRestriction? = nil,
                     horizon: Int = Raptor.defaultHorizon, explainingNoService: Bool = true) throws -> TransitJourneyResult {
        guard origin.isValid, destination.isValid else {
            throw RoutingError.noRoute("invalid coordinate")
        }
        let anchor: Date
        switch timing {
        case .departAt(let date), .arriveBy(let date): anchor = date
        }
        let zone = timetable.timeZone
        let day = ServiceDate.localDay(of: anchor, in: zone)
        // Built only when thrown: formatting the feeds' summaries costs more than a search's set-up.
        func outside() -> RoutingError {
            .outsideServicePeriod(
                "\(ServiceDate.iso(day)) is outside the transit timetable (\(timetable.feeds.isEmpty ? "no service days" : timetable.feeds.map(\.summary).joined(separator: "; ")))")
        }
        guard timetable.isInServicePeriod(day: day) else { throw outside() }

        // The traveller's walks beyond inferred stops, where known: searched from (to) their
        // place, the time asked moved by the walk (`TravellerEnds`), the journey shown from the
        // stop (`fromTheStops`).
        let beyond = (origin: travellerEnds.origin.flatMap { place in travellerEnds.originWalk.map { (place: place, walk: $0) } },
                      destination: travellerEnds.destination.flatMap { place in travellerEnds.destinationWalk.map { (place: place, walk: $0) } })
        func fromTheStops(_ raw: Raptor.Journey) -> Raptor.Journey {
            var shown = raw
            if let origin = beyond.origin {
                shown.access.seconds = TravellerEnds.extra(raw.access.seconds, beyond: origin.walk)
                shown.departure += raw.access.seconds - shown.access.seconds
            }
            if let destination = beyond.destination {
                shown.egress.seconds = TravellerEnds.extra(raw.egress.seconds, beyond: destination.walk)
                shown.arrival -= raw.egress.seconds - shown.egress.seconds
            }
            return shown
        }
        // Asked from (to) a stop inferred for the traveller, the stops are those within reach of
        // their place (`TravellerEnds.reach`), gathered around it; the place's nearest stop is
        // looked for only where the inferred one is beyond the radius.
        func reach(askedFrom point: Coordinate, place: Coordinate?) -> (centre: Coordinate, radius: Double)? {
            guard let place else { return nil }
            let endsAt = point.distance(to: place)
            let nearest = endsAt > accessRadius ? grid.stops(within: endsAt, of: place).map(\.distance).min() : nil
            return (place, TravellerEnds.reach(askedFrom: point, place: place, radius: accessRadius, nearestStop: nearest))
        }
        let reaches = (origin: reach(askedFrom: origin, place: travellerEnds.origin),
                       destination: reach(askedFrom: destination, place: travellerEnds.destination))
        let (ends, accessTime) = measure { () -> ([Raptor.Endpoint], [Raptor.Endpoint]) in
            (self.endpoints(around: origin, radius: accessRadius, pace: pace, towardsStop: true, known: knownWalks,
                            traveller: beyond.origin, gatheredAround: reaches.origin),
             self.endpoints(around: destination, radius: accessRadius, pace: pace, towardsStop: false, known: knownWalks,
                            traveller: beyond.destination, gatheredAround: reaches.destination))
        }
        let avoided = avoidedStops(avoiding)
        func reachable(_ end: Raptor.Endpoint, within reach: (centre: Coordinate, radius: Double)?) -> Bool {
            !avoided.contains(end.stop) && reach.map { timetable.stops[Int(end.stop)].coordinate.distance(to: $0.centre) <= $0.radius } ?? true
        }
        // Filtered only where something may be left out: a filter copies the list, grown one by one.
        let access = avoided.isEmpty && reaches.origin == nil ? ends.0 : ends.0.filter { reachable($0, within: reaches.origin) }
        let egress = avoided.isEmpty && reaches.destination == nil ? ends.1 : ends.1.filter { reachable($0, within: reaches.destination) }
        guard !access.isEmpty else {
            throw RoutingError.unsupportedInRegion("no transit stop within \(Int(accessRadius)) m of the origin")
        }
        guard !egress.isEmpty else {
            throw RoutingError.unsupportedInRegion("no transit stop within \(Int(accessRadius)) m of the destination")
        }

        // The days before and after that a search over `horizon` reaches (one for the default 12 hours).
        let reach = max(1, (horizon + 86_399) / 86_400)
        let around = serviceDays.around(day, reach: reach)
        var days = fullOverlay?.days(replacing: around) ?? around
        // A line's journeys: only its trips run, only its live runs are scanned (`LineRestriction`).
        var overlay = fullOverlay
        if let line {
            days = days.map { line.restricting($0, timetable: timetable) }
            overlay = overlay.map(line.restricting)
        }
        let engine = self.engine(pace)
        // Whole seconds, as the timetable: a fraction is never a reason to miss a ride, so an
        // arrive-by time rounds up (a walk of 177.4 s timed back from 09:57:27 still takes the
        // bus arriving 09:54:30 that a depart-at answer shows arriving 09:57:27; the planner's
        // connection slack is that second).
        let asked = Int(timing.isDepartAt ? anchor.timeIntervalSince1970.rounded(.down) : anchor.timeIntervalSince1970.rounded(.up))
        let instant = timing.isDepartAt ? asked - (beyond.origin.map { TravellerEnds.wholeSeconds($0.walk) } ?? 0)
                                        : asked + (beyond.destination.map { TravellerEnds.wholeSeconds($0.walk) } ?? 0)
        let stopMask = overlay?.stopMask(at: instant, stopCount: timetable.stops.count)
        let rides = max(1, maxTransfers + 1)
        let choice = JourneyChoice(transferPenalty: max(0, transferPenalty))
        func usable(_ journey: Raptor.Journey) -> Bool {
            !hasRideNoFasterThanWalking(journey, pace: pace) && !usesAny(avoided, journey) && line?.allows(journey) ?? true
        }
        // A latest departure (arrive-by's, depart-at's backward pass's) riding a hop walking is no
        // slower for is taken with that hop walked (it leaves as late; dropped, an earlier departure
        // was taken: trial 57 left 09:56 on buses 2 and 11 for 10:59 where buses 2, 8 and 13 leave
        // 10:16 and arrive 10:58).
        func walked(_ journeys: [Raptor.Journey]) -> [Raptor.Journey] {
            journeys.compactMap { walkingItsPointlessRides($0, pace: pace, access: access, egress: egress) }
                .filter { !usesAny(avoided, $0) && line?.allows($0) ?? true }
        }
        var quicker: Raptor.Journey?, later: Raptor.Journey?
        let (found, engineTime) = measure { () -> [Raptor.Journey] in
            switch timing {
            case .departAt:
                // The forward search finds the earliest arrival, but the journey it builds may leave
                // early to walk farther to the same vehicle; arriving in the same shown minute, the
                // latest departure wins (the dominance rule, docs/planner.md: `JourneyChoice.taken`).
                // Of the journeys leaving when the one taken leaves, one arriving in an earlier shown
                // minute is taken (trial 60 F2: asked earlier, the same bus 50 arrived 3 min later;
                // `Raptor.departAt(…thenSoonerLeavingAsLateAs:)`).
                var chosen: Raptor.Journey?
                let answer = engine.departAt(instant, access: access, egress: egress, days: days, maxRides: rides,
                                             horizon: horizon, overlay: overlay, stopMask: stopMask,
                                             moreRidesLeavingLaterBy: JourneyChoice.equalTimes, thenLatestFrom: {
                    chosen = choice.earliestArrival(among: $0.filter(usable))
                    return chosen
                }, thenSoonerLeavingAsLateAs: { latest in
                    chosen.flatMap { JourneyChoice.taken(among: walked(latest) + [$0], arrivingInTheMinuteOf: $0.arrival) }
                })
                // The backward pass's journeys first: of equal ones (leaving and arriving together,
                // as many rides, as much walking) theirs is taken, so the change stop does not hang
                // on when the question was asked (the forward search boards the next vehicle at the
                // first stop it can, the backward one at the last: `plan show` changed from bus 19
                // to bus 38 at Santalahti, asked from 09:20, and `plan alternatives`, asked from the
                // 09:33 it leaves, at Epilänharju, for the same two trips).
                if let chosen = answer.chosen {
                    later = JourneyChoice.taken(among: walked(answer.latest) + walked(answer.sooner) + [chosen],
                                                arrivingInTheMinuteOf: chosen.arrival)
                }
                return answer.earliest
            case .arriveBy:
                // The backward search finds the latest departure, but the journey it builds may be a slow
                // one that arrives just before the deadline; from that departure, the earliest arrival
                // wins (a change paying for itself).
                let answer = engine.arriveBy(instant, access: access, egress: egress, days: days, maxRides: rides,
                                             horizon: horizon, overlay: overlay, stopMask: stopMask,
                                             moreRidesArrivingSoonerBy: choice.transferPenalty,
                                             sameDepartureWithin: JourneyChoice.equalTimes) {
                    JourneyChoice.latestDeparture(among: walked($0))
                }
                // Arriving in the same shown minute, the latest departure is taken, then fewer
                // transfers and less walking (`JourneyChoice.taken`); the deadline holds to the second.
                if let chosen = answer.chosen {
                    let arriving = [chosen] + walked(answer.earliest.filter { $0.arrival <= instant })
                    quicker = choice.earliestArrival(among: arriving).flatMap {
                        JourneyChoice.taken(among: arriving, arrivingInTheMinuteOf: $0.arrival)
                    }
                }
                return answer.latest
            }
        }
        var journeys = timing.isDepartAt ? found.filter(usable) : walked(found)
        if journeys.isEmpty {
            // Every journey found rides a hop walking is no slower for: walked, it is a journey
            // with fewer rides, leaving no earlier and arriving no later (`walkingItsPointlessRides`).
            journeys = walked(found)
            // Depart-at then had no journey to time back from (its backward pass starts from a
            // usable one): the latest departure arriving as early is searched back from that
            // arrival, as an arrive-by question by it answers (session 58: by 07:09:49 the answer
            // left 07:10:58 for buses 6 and 26 arriving 07:51:20, where buses 28 and 26 leave
            // 07:19:58 and arrive then too). Only in this rare case: no cost to the others. Arriving
            // in the same shown minute, the journey taken is the one `JourneyChoice.taken` takes,
            // as the backward pass's answer is.
            if timing.isDepartAt, let first = choice.earliestArrival(among: journeys) {
                let back = engine.arriveBy(JourneyChoice.endOfShownMinute(first.arrival), access: access, egress: egress, days: days,
                                           maxRides: rides, horizon: horizon, overlay: overlay, stopMask: stopMask,
                                           moreRidesArrivingSoonerBy: choice.transferPenalty) { JourneyChoice.latestDeparture(among: walked($0)) }
                let catchable = walked(back.latest).filter { $0.departure >= instant }
                if let taken = JourneyChoice.taken(among: catchable + [first], arrivingInTheMinuteOf: first.arrival),
                   taken.departure > first.departure { later = taken }
            }
        }
        guard var bestRaw = choice.best(among: journeys, departAt: timing.isDepartAt) else {
            let when = Self.localClock(anchor, zone: zone)
            if !found.isEmpty {
                throw RoutingError.noRoute(RoutingError.onlyRidesWalkingBeats)
            }
            // The day after a feed's last is searched only for that evening's trips past midnight.
            if !timetable.feeds.contains(where: { ($0.firstDay...$0.lastDay).contains(day) }) { throw outside() }
            // A step-free view left with no trip at all: the feed marks none accessible (strict:
            // none says yes), which no other time or place would change.
            if isStepFreeView, timetable.tripIDs.isEmpty {
                throw RoutingError.noRoute(noStepFreeTrip ?? "no trip in this feed is step-free, so step-free transit has none to ride")
            }
            // Depart-at: when service resumes, and when it ended, as the engine finds them (a noon
            // question after a morning-only timetable: "the last ride is tram 3 at 11:34 from Keskustori B,
            // the next is bus 6 at 06:10 +1d (2022-01-13) from Koskipuisto D").
            // Arrive-by likewise: the last ride that makes an earlier deadline, the next after this one.
            if explainingNoService {
                let around = departuresAround(anchor, arrivingBy: !timing.isDepartAt, from: origin, to: destination, pace: pace,
                                              maxTransfers: maxTransfers, accessRadius: accessRadius,
                                              transferPenalty: transferPenalty, avoiding: avoiding,
                                              knownWalks: knownWalks, travellerEnds: travellerEnds, overlay: fullOverlay, line: line)
                if around.last != nil || around.next != nil {
                    func ride(_ ride: TransitRide) -> String {
                        "\(ride.vehicle) \(ride.lineName) at \(clock(ride.boarding.time, onDayOf: day)) from \(ride.boarding.name)"
                    }
                    // How far back was searched, when nothing was found there. Arrive-by: the last ride
                    // arriving by the deadline left before the hours searched (it may arrive within them:
                    // tram 3 at 11:34 arriving 11:56 for 23:33), so the answer says both.
                    let last = around.last.map { last in
                        around.lastArrival.map { "none leaves in the \(Raptor.defaultHorizon / 3600) hours before; "
                            + "the last ride is \(ride(last)), arriving \(clock($0, onDayOf: day))" } ?? "the last ride is \(ride(last))"
                    } ?? "none leaves in the \((timing.isDepartAt ? 3 * Raptor.defaultHorizon / 4 : 3 * Raptor.defaultHorizon) / 3600) hours before"
                    // Arrive-by: when the traveller can arrive instead, and how ("the earliest arrival is 06:32:
                    // bus 6 at 06:10 from Koskipuisto D"); depart-at: when service resumes.
                    let next = around.next.map { next in
                        around.arrival.map { "the earliest arrival is \(clock($0, onDayOf: day)): \(ride(next))" } ?? "the next is \(ride(next))"
                    } ?? "none leaves in the \((timing.isDepartAt ? 3 : 1) * Raptor.defaultHorizon / 3600) hours after"
                    throw RoutingError.noRoute("no transit service \(timing.isDepartAt ? "leaving after" : "arriving by") \(when) "
                                               + "between these points: " + [last, next].joined(separator: timing.isDepartAt ? ", " : "; "),
                                               searched: anchor)
                }
            }
            throw RoutingError.noRoute("no transit service \(timing.isDepartAt ? "leaving after" : "arriving by") \(when) between these points"
                                       + " in the \(Raptor.defaultHorizon / 3600) hours searched", searched: anchor)
        }
        if let better = quicker ?? later { bestRaw = better }
        // The next question is asked of the traveller's place as this one was (`nextQuestion`).
        func second(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
        let nextQuestion: LegTiming? = switch timing {
        case .departAt: beyond.origin.map { .departAt(second(bestRaw.departure + 1 + TravellerEnds.wholeSeconds($0.walk))) }
        case .arriveBy: beyond.destination.map { .arriveBy(second(bestRaw.arrival - 1 - TravellerEnds.wholeSeconds($0.walk))) }
        }
        bestRaw = fromTheStops(bestRaw)
        let direct = walking.walkingSeconds(from: origin, to: destination, pace: pace)
        var walkingIsNoSlower = false
        if let direct {
            switch timing {
            case .departAt: walkingIsNoSlower = Double(asked) + direct <= Double(bestRaw.arrival)
            case .arriveBy: walkingIsNoSlower = Double(asked) - direct >= Double(bestRaw.departure)
            }
        }
        // Alternatives are no quicker than the best, so the note holds for them too.
        let best = journey(bestRaw, from: origin, to: destination, walkingIsNoSlower: walkingIsNoSlower, overlay: overlay)
        let alternatives = journeys.filter { $0.rides.count < bestRaw.rides.count }.map {
            journey(fromTheStops($0), from: origin, to: destination, walkingIsNoSlower: walkingIsNoSlower, overlay: overlay)
        }
        var result = TransitJourneyResult(best: best, alternatives: alternatives,
                                          walkingIsNoSlower: walkingIsNoSlower, walkingSeconds: direct,
                                          accessEgressSeconds: accessTime, engineSeconds: engineTime)
        result.nextQuestion = nextQuestion
        return result
    }

    /// Up to `count` different journeys leaving at or after the time of a depart-at `timing`, or
    /// arriving by the time of an arrive-by one: the best journey, the ones with fewer transfers
    /// (the Pareto set `leg` keeps as alternatives), then the same for the departures after it
    /// (arrivals before it), one search a second after the previous best departure (before its
    /// arrival), until `count` are found or no more exist. None is dominated by another (`JourneyDominance`: leaving
    /// no earlier, arriving no later, with no more transfers and walking). Sorted by departure,
    /// then arrival.
    /// - throws: as `leg`, when not even the first search finds a journey.
    public func journeys(from origin: Coordinate, to destination: Coordinate, timing: LegTiming, pace: WalkingPace,
                         count: Int, maxTransfers: Int = 4, accessRadius: Double = TransitRouter.defaultAccessRadius,
                         transferPenalty: Int = TransitRouter.defaultTransferPenalty,
                         avoiding: [Coordinate] = [], access: AccessNeed = .any,
                         knownWalks: KnownEndWalks = KnownEndWalks(), travellerEnds: TravellerEnds = TravellerEnds(),
                         riding: String? = nil) throws -> [RouteLeg] {
        if let view = view(for: access) {
            return try view.journeys(from: origin, to: destination, timing: timing, pace: pace, count: count,
                                     maxTransfers: maxTransfers, accessRadius: accessRadius,
                                     transferPenalty: transferPenalty, avoiding: avoiding, knownWalks: knownWalks, travellerEnds: travellerEnds,
                                     riding: riding)
        }
        let line = try lineRestriction(riding)  // built once for all the searches
        var timing = timing
        var found: [RouteLeg] = []
        var seen = Set<[String]>()
        let overlay = realtime.snapshot  // every search of this query on one overlay
        // Each search yields at least one journey leaving later (arriving earlier) than the
        // last, so this ends; a dominated one found before may go, so up to twice as many
        // searches fill the list.
        for search in 0..<2 * max(1, count) {
            let result: TransitJourneyResult
            do {
                result = try leg(from: origin, to: destination, timing: timing, pace: pace, maxTransfers: maxTransfers,
                                 accessRadius: accessRadius, transferPenalty: transferPenalty, avoiding: avoiding,
                                 knownWalks: knownWalks, travellerEnds: travellerEnds, overlay: overlay, line: line,
                                 explainingNoService: search == 0)
            } catch where search > 0 {
                break  // no more service: the ones found are all there are
            }
            for leg in [result.best] + result.alternatives {
                let identity = leg.tripIDs + [leg.departure.map { "\($0.timeIntervalSince1970)" } ?? ""]
                if seen.insert(identity).inserted { found.append(leg) }
            }
            // A later departure may arrive no later than one found before: that one goes.
            found = JourneyDominance.undominated(found)
            guard found.count < count, let next = result.nextQuestion ?? Self.timing(after: result.best, timing) else { break }
            timing = next
        }
        let time = timing.date
        let sorted = found.sorted {
            ($0.departure ?? time, $0.arrival ?? time) < ($1.departure ?? time, $1.arrival ?? time)
        }
        // Arrive-by keeps the latest departures, the ones nearest the time asked.
        return timing.isDepartAt ? Array(sorted.prefix(max(1, count))) : Array(sorted.suffix(max(1, count)))
    }

    /// The search after one whose best journey is `best`: depart-at a second after it leaves,
    /// arrive-by a second before it arrives; nil for a journey without times.
    private static func timing(after best: RouteLeg, _ timing: LegTiming) -> LegTiming? {
        switch timing {
        case .departAt: best.departure.map { .departAt($0.addingTimeInterval(1)) }
        case .arriveBy: best.arrival.map { .arriveBy($0.addingTimeInterval(-1)) }
        }
    }

    // MARK: - Helpers

    /// The step-free view to search for `access`; nil for `.any` (this timetable), and inside a view.
    func view(for access: AccessNeed) -> TransitRouter? {
        guard access.isStepFree, !isStepFreeView else { return nil }
        return stepFree.router(for: access, over: self)
    }

    /// How close a timetable stop must be to an avoided position to be that stop.
    public static let avoidedStopMetres: Double = 3

    /// The timetable stops at the avoided positions.
    func avoidedStops(_ positions: [Coordinate]) -> Set<Int32> {
        Set(positions.flatMap { position in
            grid.stops(within: Self.avoidedStopMetres, of: position).map { Int32($0.index) }
        })
    }

    /// Whether the journey boards, alights or changes at one of `stops`.
    func usesAny(_ stops: Set<Int32>, _ journey: Raptor.Journey) -> Bool {
        !stops.isEmpty && journey.rides.contains { stops.contains($0.boardStop) || stops.contains($0.alightStop) }
    }

    private func measure<T>(_ body: () -> T) -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = body()
        return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    static func localClock(_ date: Date, zone: TimeZone) -> String {
        let (day, time) = ServiceDate.wallClock(of: date, in: zone)
        // The IANA name, as every other output says it (Foundation calls UTC "GMT").
        return ServiceDate.iso(day) + " " + time + " " + (zone.identifier == "GMT" ? "UTC" : zone.identifier)
    }

    /// Stops within the radius with their walking time at the pace: `known`'s seconds where it
    /// knows the stop, else its straight-line speed, else `walking`'s estimate.
    /// - parameter traveller: the traveller's place beyond `point` (a stop inferred for them) and
    ///   their walk between it and `point`, when known (`TravellerEnds`): each stop's seconds are
    ///   then the walk between the place and it (`known` holds walks timed so), `point`'s own the
    ///   walk given.
    /// - parameter gathering: where the stops are gathered, when not within `radius` of `point`
    ///   (around the traveller's place beyond an inferred stop, `TravellerEnds.reach`).
    func endpoints(around point: Coordinate, radius: Double, pace: WalkingPace, towardsStop: Bool,
                   known: KnownEndWalks = KnownEndWalks(), traveller: (place: Coordinate, walk: TimeInterval)? = nil,
                   gatheredAround gathering: (centre: Coordinate, radius: Double)? = nil) -> [Raptor.Endpoint] {
        let seconds = towardsStop ? known.access : known.egress
        func endpoint(_ found: (index: Int, distance: Double)) -> Raptor.Endpoint? {
            if !seconds.isEmpty, let known = seconds[timetable.stops[found.index].id] {
                return Raptor.Endpoint(stop: Int32(found.index), seconds: max(0, known))
            }
            let stop = timetable.stops[found.index].coordinate
            // The grid measured from `point` unless the stops were gathered around another centre.
            let fromPoint = gathering == nil ? found.distance : point.distance(to: stop)
            func estimate(_ from: Coordinate, metres: Double) -> Int? {
                let seconds = if let speed = known.unknownMetresPerSecond {
                    known.pricedMetres(straightLine: metres) / speed * pace.durationMultiplier
                } else if towardsStop {
                    walking.walkingSeconds(from: from, to: stop, straightMetres: metres, pace: pace)
                } else {
                    walking.walkingSeconds(from: stop, to: from, straightMetres: metres, pace: pace)
                }
                guard let seconds, seconds.isFinite, seconds >= 0 else { return nil }
                return Int(seconds.rounded(.up))
            }
            guard let viaPoint = estimate(point, metres: fromPoint) else { return nil }
            guard let traveller else { return Raptor.Endpoint(stop: Int32(found.index), seconds: viaPoint) }
            let walk = TravellerEnds.wholeSeconds(traveller.walk)
            // `point` itself is the walk known; another stop is walked from the place, never
            // dearer than on through `point`.
            let fromPlace = fromPoint < 1 ? walk : min(viaPoint + walk, estimate(traveller.place, metres: traveller.place.distance(to: stop)) ?? .max)
            return Raptor.Endpoint(stop: Int32(found.index), seconds: fromPlace)
        }
        let around = grid.stops(within: gathering?.radius ?? radius, of: gathering?.centre ?? point)
        var endpoints: [Raptor.Endpoint] = []
        endpoints.reserveCapacity(around.count)  // grown one by one, the copies cost more than the walks' estimates
        for found in around {
            if let endpoint = endpoint(found) { endpoints.append(endpoint) }
        }
        return endpoints
    }

    /// Turns engine output into the port's leg (with its walks, so they reach storage and the
    /// wire) plus the walks in the engine's own type. A live run's calls carry their timetable
    /// times too, and each ride the overlay's alerts that touch it while it runs.
    func journey(_ raw: Raptor.Journey, from origin: Coordinate, to destination: Coordinate,
                 walkingIsNoSlower: Bool = false, overlay: RealtimeOverlay? = nil) -> TransitJourney {
        let tt = timetable
        func date(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
        func stop(_ index: Int32) -> Timetable.Stop { tt.stops[Int(index)] }
        var walks: [TransitWalkStep] = []
        var rides: [TransitRide] = []
        var geometry: [Coordinate] = [origin]
        var distance = 0.0
        var fareRides: [FareRide] = []
        var accessibility: [LegAccessibility] = []

        let first = stop(raw.access.stop)
        let accessMetres = origin.distance(to: first.coordinate)
        walks.append(TransitWalkStep(kind: .access, fromName: "origin", from: origin, toName: first.name, to: first.coordinate,
                                 start: date(raw.departure), duration: Double(raw.access.seconds), distance: accessMetres))
        distance += accessMetres
        for (k, ride) in raw.rides.enumerated() {
            if k > 0 {
                let t = raw.transfers[k - 1]
                let a = stop(t.from), b = stop(t.to)
                let metres = changeWalkMetres(from: t.from, to: t.to) ?? a.coordinate.distance(to: b.coordinate)
                distance += metres
                walks.append(TransitWalkStep(kind: .transfer, fromName: a.name, from: a.coordinate, toName: b.name, to: b.coordinate,
                                         start: date(raw.rides[k - 1].arrival), duration: Double(t.seconds), distance: metres))
                if !AccessibilityValue.changeIsStepFree(from: t.from, to: t.to, in: tt.stops) { accessibility.append(.unknown) }
            }
            let pattern = tt.patterns[Int(ride.pattern)]
            let routeIndex = tt.tripRoutes[Int(ride.trip)]
            let route = tt.routes[Int(routeIndex)]
            var previous: Coordinate? = nil
            for i in Int(ride.boardIndex)...Int(ride.alightIndex) {
                let s = tt.patternStops[Int(pattern.stopsStart) + i]
                let c = stop(s).coordinate
                if let previous { distance += previous.distance(to: c) }
                previous = c
                geometry.append(c)
            }
            fareRides.append(fareRide(route: routeIndex, pattern: pattern, boardIndex: Int(ride.boardIndex),
                                      alightIndex: Int(ride.alightIndex), boarding: ride.departure, alighting: ride.arrival))
            let board = stop(ride.boardStop), alight = stop(ride.alightStop)
            accessibility.append(AccessibilityValue.ride(trip: tt.tripWheelchair[Int(ride.trip)],
                                                         boarding: board.wheelchairBoarding, alighting: alight.wheelchairBoarding))
            let headsign = tt.tripHeadsigns[Int(ride.trip)], headway = tt.tripHeadways[Int(ride.trip)]
            let facts = ResolvedAlert.RideFacts(trip: ride.trip, pattern: ride.pattern, day: ride.day, boardStop: ride.boardStop,
                                                alightStop: ride.alightStop, departure: ride.departure, arrival: ride.arrival)
            let alerts = overlay?.alerts(touching: facts, in: tt) ?? (shown: [], omitted: 0)
            rides.append(TransitRide(lineName: route.shortName, vehicle: VehicleKind.name(routeType: route.routeType),
                                     headsign: headsign.isEmpty ? nil : headsign, tripID: tt.tripIDs[Int(ride.trip)],
                                     headwaySeconds: headway > 0 ? Int(headway) : nil,
                                     boarding: TransitStopCall(stopID: board.id, name: board.name, coordinate: board.coordinate,
                                                               time: date(ride.departure), scheduledTime: ride.scheduledDeparture.map(date)),
                                     alighting: TransitStopCall(stopID: alight.id, name: alight.name, coordinate: alight.coordinate,
                                                                time: date(ride.arrival), scheduledTime: ride.scheduledArrival.map(date)),
                                     alerts: alerts.shown, alertsOmitted: alerts.omitted))
        }
        let last = stop(raw.egress.stop)
        let egressMetres = last.coordinate.distance(to: destination)
        distance += egressMetres
        geometry.append(destination)
        walks.append(TransitWalkStep(kind: .egress, fromName: last.name, from: last.coordinate, toName: "destination", to: destination,
                                 start: date(raw.arrival - raw.egress.seconds), duration: Double(raw.egress.seconds), distance: egressMetres))
        let leg = RouteLeg(mode: .transit, expectedTravelTime: TimeInterval(raw.arrival - raw.departure), distance: distance,
                           departure: date(raw.departure), arrival: date(raw.arrival), geometry: geometry, rides: rides,
                           walks: walks, walkingIsNoSlower: walkingIsNoSlower,
                           price: FarePricing.cheapest(fareRides, in: tt.fares, units: tt.fareUnits, timeZoneID: tt.timeZoneID),
                           accessibility: LegAccessibility.least(of: accessibility) ?? .unknown)
        return TransitJourney(leg: leg, walks: walks)
    }
}
