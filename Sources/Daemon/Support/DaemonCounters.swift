import Planner
import Synchronization
import WireProtocol

/// What the daemon has done since it started, for `status` (and for the test that proves an
/// edit queries only the segments it touched).
public final class DaemonCounters: Sendable {
    private struct Values {
        var requests = 0
        var walk = 0
        var transit = 0
        var car = 0
        var bike = 0
        var plansRecomputed = 0
        var connections = 0
        var noRouteRetries = 0
        var noRouteKnownAtImport = 0
        var historyNotRecorded = 0
        var realtimeOverlaysBuilt = 0
    }

    private let values = Mutex(Values())

    public init() {}

    public func countRequest() { values.withLock { $0.requests += 1 } }

    public func countRoutingQuery(_ mode: TravelMode) {
        values.withLock {
            switch mode {
            case .walk: $0.walk += 1
            case .transit: $0.transit += 1
            case .car: $0.car += 1
            case .bike: $0.bike += 1
            }
        }
    }

    /// Street routes asked again from other nearby roads after Routino found none.
    public func countNoRouteRetries(_ count: Int) { values.withLock { $0.noRouteRetries += count } }

    /// A street route answered `no_route` from the region's street components, Routino not asked.
    public func countNoRouteKnownAtImport() { values.withLock { $0.noRouteKnownAtImport += 1 } }

    /// A search or comparison answered without its history entry (the disk was full).
    public func countHistoryNotRecorded() { values.withLock { $0.historyNotRecorded += 1 } }

    public func countPlanRecomputed() { values.withLock { $0.plansRecomputed += 1 } }

    /// A realtime overlay built for a region after a poll round (then its plans for today are refreshed once).
    public func countRealtimeOverlayBuilt() { values.withLock { $0.realtimeOverlaysBuilt += 1 } }

    public func connectionOpened() { values.withLock { $0.connections += 1 } }
    public func connectionClosed() { values.withLock { $0.connections -= 1 } }

    /// The counters, with the number of running `watch` requests.
    public func document(watchers: Int) -> CountersDocument {
        values.withLock {
            CountersDocument(requests: $0.requests,
                             routingQueries: RoutingQueryCounts(walk: $0.walk, transit: $0.transit, car: $0.car,
                                                                 bike: $0.bike),
                             plansRecomputed: $0.plansRecomputed, connections: $0.connections, watchers: watchers,
                             noRouteRetries: $0.noRouteRetries, logLinesDropped: DaemonLogger.droppedLines,
                             historyNotRecorded: $0.historyNotRecorded, noRouteKnownAtImport: $0.noRouteKnownAtImport,
                             realtimeOverlaysBuilt: $0.realtimeOverlaysBuilt)
        }
    }
}
