import Foundation
import Planner
import Synchronization

/// A router's step-free views (`Timetable.stepFreeView`), each a `TransitRouter` of its own:
/// built on first use, once per level, and kept with the router (one region version). The
/// realtime feeds laid over the router are laid over each view as well, so a step-free search
/// sees the same live times and cancellations.
final class StepFreeRouters: Sendable {
    private struct Built {
        var routers: [AccessNeed: TransitRouter] = [:]
        /// The feeds last put in force (`apply`), for a view built after them.
        var feeds: (feeds: [RealtimeFeed], now: Date)?
    }

    private let built = Mutex(Built())

    /// The view for `access` (a step-free level) over `base`, building it when first asked.
    func router(for access: AccessNeed, over base: TransitRouter) -> TransitRouter {
        if let router = built.withLock({ $0.routers[access] }) { return router }
        // Built outside the lock (it takes a moment on a big timetable); the first one stored wins.
        let strict = access == .wheelchairStrict
        let viewed = base.timetable.stepFreeView(strict: strict)
        let view = TransitRouter(timetable: viewed, walking: base.walking, stepFreeView: true,
                                 noStepFreeTrip: viewed.tripIDs.isEmpty ? base.timetable.whyNoStepFreeTrip(strict: strict) : nil)
        return built.withLock { built in
            if let router = built.routers[access] { return router }
            if let feeds = built.feeds, !feeds.feeds.isEmpty { view.applyRealtime(feeds.feeds, now: feeds.now) }
            built.routers[access] = view
            return view
        }
    }

    /// Lays `feeds` over every view built so far, and remembers them for the views built later.
    func apply(_ feeds: [RealtimeFeed], now: Date) {
        built.withLock { built in
            built.feeds = (feeds, now)
            for view in built.routers.values { view.applyRealtime(feeds, now: now) }
        }
    }

    /// Whether the view for `access` has been built (for tests: it is built once).
    func isBuilt(_ access: AccessNeed) -> Bool {
        built.withLock { $0.routers[access] != nil }
    }
}
