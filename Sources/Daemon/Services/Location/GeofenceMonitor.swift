import Foundation
import Planner
import Store
import Synchronization

/// Follows every fenced saved place through the accepted fixes (from gpsd or `location.set`)
/// with the write-up's rule (`GeofenceTracker`), and tells of arrivals and departures: an
/// `arrived` or `left` event to `watch` clients and an entry in the visits history.
///
/// Fence states live in memory only: after a restart each fence is unknown again, and the
/// first usable fix only decides the state. An event needs a known state before it:
/// outside → inside is `arrived`, inside → outside is `left`; so a restart at home does not
/// announce an arrival, and nothing is said twice.
public final class GeofenceMonitor: Sendable {
    private let store: Store
    private let events: EventHub
    private let clock: any WallClock
    private let timeZone: @Sendable (Coordinate) -> TimeZone
    private let trackers = Mutex<[String: GeofenceTracker]>([:])

    public init(store: Store, events: EventHub, clock: any WallClock, timeZone: @escaping @Sendable (Coordinate) -> TimeZone) {
        self.store = store
        self.events = events
        self.clock = clock
        self.timeZone = timeZone
    }

    /// Applies an accepted fix to every fence that is on. A fix without accuracy, or outside the
    /// accuracy gate, changes nothing.
    /// - throws: what the store throws reading fences or recording a visit.
    public func observe(_ fix: LocationFix) async throws {
        for visit in visits(fix, fences: try await store.read(Geofences.all())) {
            try await store.write(Geofences.recordVisit(visit))
            publish(visit, fix)
        }
    }

    /// `observe` for a thread of its own (gpsd's), which may wait for the store: fixes are
    /// applied in the order they come, each before the thread reads the next.
    public func observeWaiting(_ fix: LocationFix) throws {
        for visit in visits(fix, fences: try store.read(Geofences.all())) {
            try store.write(Geofences.recordVisit(visit))
            publish(visit, fix)
        }
    }

    /// The visits (arrivals, departures) `fix` makes at the fences that are on, trackers updated.
    private func visits(_ fix: LocationFix, fences all: [PlaceFence]) -> [VisitEntry] {
        let fences = all.filter(\.isOn)
        return trackers.withLock { trackers in
            // A fence turned off, removed or moved starts unknown again.
            trackers = trackers.filter { name, tracker in
                fences.contains { $0.name == name && $0.center == tracker.center && $0.radiusMetres == tracker.insideMetres }
            }
            var visits: [VisitEntry] = []
            for fence in fences {
                let (next, transition) = (trackers[fence.name] ?? Self.tracker(for: fence)).tracking(fix)
                trackers[fence.name] = next
                guard let transition, let event = Self.event(for: transition) else { continue }
                visits.append(VisitEntry(placeName: fence.name, event: event, fix: fix, date: clock.now()))
            }
            return visits
        }
    }

    private func publish(_ visit: VisitEntry, _ fix: LocationFix) {
        let zone = timeZone(fix.coordinate)
        let payload = DaemonEvent.Visit(place: visit.placeName, fix: fix, timeZone: zone)
        events.publish(visit.event == .arrived ? .arrived(payload) : .left(payload))
    }

    /// The state now of each fence in `fences` that is on: unknown until a usable fix decided
    /// it, so every fence is listed from the start (after a restart too), not only once a fix came.
    public func states(of fences: [PlaceFence]) -> [String: GeofenceState] {
        let trackers = trackers.withLock { $0 }
        return Dictionary(fences.filter(\.isOn).map { fence in
            // A tracker of a fence since moved or resized is stale: that fence starts unknown.
            let tracker = trackers[fence.name].flatMap { $0.center == fence.center && $0.insideMetres == fence.radiusMetres ? $0 : nil }
            return (fence.name, tracker?.state ?? .unknown)
        }, uniquingKeysWith: { first, _ in first })
    }

    static func tracker(for fence: PlaceFence) -> GeofenceTracker {
        GeofenceTracker(center: fence.center, insideMetres: fence.radiusMetres,
                        outsideMetres: GeofenceRule.outsideMetres(forInside: fence.radiusMetres))
    }

    static func event(for transition: GeofenceTransition) -> VisitEntry.Event? {
        switch (transition.from, transition.to) {
        case (.outside, .inside): .arrived
        case (.inside, .outside): .left
        default: nil
        }
    }
}
