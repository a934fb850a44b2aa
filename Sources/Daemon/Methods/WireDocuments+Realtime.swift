import Foundation
import WireProtocol

// A realtime feed's state as `status` and `region.list` show it: the poller keeps domain
// values (`RealtimeFeedState`), written here with the region's offset.

extension WireDocuments {
    static func realtimeFeed(_ state: RealtimeFeedState) -> RealtimeFeedDocument {
        func time(_ date: Date?) -> String? { date.map { WireTime.string(from: $0, timeZone: state.timeZone) } }
        return RealtimeFeedDocument(source: state.source, gtfsFeed: state.gtfsFeed, intervalS: state.intervalSeconds,
                                    state: state.condition.rawValue, lastFetch: time(state.lastFetch),
                                    lastChange: time(state.lastChange), feedTime: time(state.feedTime),
                                    tripUpdatesApplied: state.tripUpdatesApplied, tripsCancelled: state.tripsCancelled,
                                    alertsApplied: state.alertsApplied, refused: state.refused, error: state.error,
                                    consecutiveFailures: state.consecutiveFailures)
    }
}
