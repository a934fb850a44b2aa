import Foundation
import PlanCalendar
import Planner
import Store
import Streets

/// Keeps `plans.ics` in the data directory (by default `$XDG_DATA_HOME/usefulmap/plans.ics`):
/// every stored plan's legs that end today or later (the daemon's clock, each plan's region
/// zone), for a calendar application to subscribe to. It is written at start-up and again after
/// every `plan_recomputed`, `pending_update` and `plan_deleted` event, and every hour (so a day's
/// plans leave it within the hour after their zone's midnight), by a task of its own (never on
/// a request's path), atomically: a reader sees the old file or the new one. It is the user's
/// alone (0600): it says where they will be.
public actor PlansCalendarFile: DaemonService {
    public static let fileName = "plans.ics"
    /// The events after which the file is written again.
    static let planEvents: Set<String> = ["plan_recomputed", "pending_update", "plan_deleted"]

    private let plans: PlanRepository
    private let export: PlanCalendarExport
    private let events: EventHub
    private let clock: any WallClock
    private let logger: DaemonLogger
    let file: URL
    /// How often the file is written even when no plan changed (days end).
    static let rewriteInterval = Duration.seconds(3600)

    init(plans: PlanRepository, export: PlanCalendarExport, events: EventHub, clock: any WallClock,
         logger: DaemonLogger, dataDirectory: URL) {
        self.plans = plans
        self.export = export
        self.events = events
        self.clock = clock
        self.logger = logger.with(["task": "plans.ics"])
        file = dataDirectory.appendingPathComponent(Self.fileName)
    }

    nonisolated let name = "calendar file"

    /// Writes the file now, then after every plan change and every hour until its task is
    /// cancelled; a write under way ends first, so nothing holds the store afterwards. Changes
    /// that come while it writes are written together once it is done (the wake-up stream
    /// keeps only one).
    public func run() async {
        let (wakeUps, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // Subscribed before `run` first suspends: no change after the start is missed.
        let planChanges = events.listen(where: { Self.planEvents.contains($0.kind) }, bufferingNewest: 1)
        wake.yield()
        await withDiscardingTaskGroup { group in
            // Both end with the group's task: the listener's stream ends, and the hub lets it go.
            group.addTask {
                for await _ in planChanges { wake.yield() }
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.rewriteInterval)
                    wake.yield()
                }
            }
            for await _ in wakeUps {
                guard !Task.isCancelled else { break }
                await write()
            }
            group.cancelAll()
        }
    }

    /// Writes every plan from today on; a plan that cannot be read is left out (and logged).
    func write() async {
        let now = clock.now()
        var calendarEvents: [CalendarEvent] = []
        do {
            let logger = logger
            let shown = try await plans.showAll { id, error in
                logger.warning("cannot read a plan for plans.ics", ["plan": String(id), "error": "\(error)"])
            }
            for outcome in shown {
                calendarEvents += export.events(outcome, now: now).filter { event in
                    var calendar = Calendar(identifier: .gregorian)
                    calendar.timeZone = event.timeZone
                    return event.end >= calendar.startOfDay(for: now)
                }
            }
            // Owner-only, and under a temporary name that start-up sweeps if a kill interrupts it.
            try OwnerOnlyFile.replace(file, with: Data(CalendarText.ics(calendarEvents, stamp: now).utf8))
        } catch {
            logger.warning("cannot write plans.ics", ["path": file.path, "error": "\(error)"])
        }
    }
}
