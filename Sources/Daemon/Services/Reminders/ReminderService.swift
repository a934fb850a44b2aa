import Foundation
import Notifications
import Planner
import Store

/// Desktop notifications for plans travelling today (docs/operations.md, "Notifications"):
/// the reminder to leave at leave time minus the lead, and change notices (pending update,
/// missed connection, delay, cancellation) that replace the plan's earlier notification, at
/// most one a minute per plan. Each is sent once: what was sent is stored, so a restart does
/// not repeat it. Every one is also a `reminder` event on `watch`, shown by a server or not.
///
/// A `DaemonService`: `start` subscribes to the plan events, `run` takes them and looks at the
/// plans every `tick` (two child tasks) until cancelled, then stops its desktop notifier.
actor ReminderService: DaemonService {
    /// Button keys of the reminder.
    static let openAction = DesktopNotification.Action(key: "open", label: "Open route")
    static let snoozeAction = DesktopNotification.Action(key: "snooze", label: "In 5 min")
    /// A fix older than this does not move the leave time.
    static let freshFix: TimeInterval = 300
    /// A fix this close to the plan's first node is at it: no walk to add.
    static let atNodeMetres = 50.0
    /// Change notices of one plan come at most this often.
    static let noticeInterval: TimeInterval = 60
    /// How often the plans are looked at.
    static let tick: Duration = .seconds(1)
    /// The longest walk from a fix counted before a reminder's time (a plan further from due is not asked about).
    static let walkHorizon: TimeInterval = 7200

    struct Settings: Sendable {
        var lead: TimeInterval
        var snooze: TimeInterval
    }

    /// A notification about to go out or gone out.
    struct Notice: Sendable {
        var planID: Int64
        /// Its stored name (once per plan).
        var key: String
        /// `leave` or the change's kind (the `reminder` event's `notice`).
        var kind: String
        var title: String
        var body: String
        var leaveAt: Date?
        var zone: TimeZone
    }

    private let store: Store
    /// The plans reminded of (read through the one reader of plans).
    private let plans: PlanRepository
    private let notifier: DesktopNotifier
    private let events: EventHub
    private let clock: any WallClock
    private let regions: RegionRegistry
    private let location: LocationState
    private let router: any RoutingPort
    private let logger: DaemonLogger
    private let settings: Settings

    /// The server's ID → the notice it shows (for its buttons).
    private var shown: [UInt32: Notice] = [:]
    /// The plan's newest server ID (replaced by its next notice).
    private var latestID: [Int64: UInt32] = [:]
    private var lastSent: [Int64: Date] = [:]
    /// Change notices waiting for their plan's minute to pass, the newest per plan.
    private var waiting: [Int64: Notice] = [:]
    /// Snoozed reminders and when they come again.
    private var snoozed: [(due: Date, notice: Notice)] = []
    /// The walk from a fresh fix to a plan's first node, per plan and fix time.
    private var walks: [Int64: (fixAt: Date, seconds: TimeInterval?)] = [:]
    /// "plan notice" of the notices known to be sent (stored): a reminder due over several
    /// looks is checked against the database once.
    private var sent: Set<String> = []
    /// The stored plans, read once and then kept current by the plan events (`nil`: to be read
    /// at the next look), so that the look every second touches no database.
    private var kept: [Int64: RoutePlan]?
    /// Whether the first read of every plan is under way, and which plans changed meanwhile.
    private var readingAll = false
    private var changedWhileReading: Set<Int64> = []
    /// Reloads of one plan may finish out of order: only the one begun last is kept.
    private var reloads = NewestReads<Int64>()
    private var failureLogged = false
    /// The plan events, from `start` until `run` takes them.
    private var planEvents: AsyncStream<DaemonEvent>?

    init(store: Store, plans: PlanRepository, notifier: DesktopNotifier, events: EventHub, clock: any WallClock, regions: RegionRegistry,
         location: LocationState, router: any RoutingPort, logger: DaemonLogger, settings: Settings) {
        self.store = store
        self.plans = plans
        self.notifier = notifier
        self.events = events
        self.clock = clock
        self.regions = regions
        self.location = location
        self.router = router
        self.logger = logger
        self.settings = settings
    }

    nonisolated var name: String { "reminders" }

    /// Subscribes to the plan events, so that none published once the later services start is
    /// missed. (`async` as the protocol's: a caller's `await start()` must not find the
    /// protocol's empty default instead.)
    func start() async {
        planEvents = planEvents ?? Self.listen(to: events)
    }

    private static func listen(to events: EventHub) -> AsyncStream<DaemonEvent> {
        events.listen(where: { event in
            switch event {
            case .planRecomputed, .planDeleted, .pendingUpdate, .delay, .cancelled: true
            default: false
            }
        }, bufferingNewest: 256)
    }

    /// Takes the plan events and looks at the plans every `tick` until cancelled; once both have
    /// ended (nothing of them holds the store any more, and the hub let the listener go), stops
    /// the desktop notifier: its bus thread ends and closes the bus.
    func run() async {
        let changes = planEvents ?? Self.listen(to: events)
        planEvents = nil
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await event in changes { await self.take(event) }
            }
            group.addTask {
                while !Task.isCancelled {
                    await self.look()
                    try? await Task.sleep(for: Self.tick)
                }
            }
        }
        // The answers it gives as it stops start tasks that hold the store, which finish while
        // the server stops. It blocks until its thread has ended: a thread of the blocking pool
        // waits, outside this run's cancellation (the pool skips a cancelled caller's work).
        await outsideCancellation { [notifier] in _ = try? await CPUWorkPool.blocking.run { notifier.stop() } }
    }

    /// The server's signal: "Open route" opens the first leg's link, "In 5 min" snoozes.
    func handle(_ signal: NotificationSignal) async {
        guard case .actionInvoked(let id, let action) = signal, let notice = shown[id] else { return }
        switch action {
        case Self.snoozeAction.key:
            snoozed.append((clock.now().addingTimeInterval(settings.snooze), notice))
        case Self.openAction.key:
            await openRoute(of: notice.planID)
        default:
            break
        }
    }

    // MARK: - Looking at today's plans

    private func look() async {
        let now = clock.now()
        do {
            // A snapshot: events may change `kept` while a walk is asked for.
            for (id, plan) in try await storedPlans().sorted(by: { $0.key < $1.key }) {
                try await look(at: id, plan, now: now)
            }
        } catch {
            logger.warning("cannot read the plans to remind of", ["error": "\(error)"])
        }
        for (index, entry) in snoozed.enumerated().reversed() where entry.due <= now {
            snoozed.remove(at: index)
            var again = entry.notice
            again.key = NoticeKey.snoozed(again.key, due: entry.due, in: again.zone)
            await send(again, now: now)
        }
        for (planID, notice) in waiting {
            guard await mayNotify(planID, now: now) else { continue }
            waiting[planID] = nil
            await send(notice, now: now)
        }
    }

    private func look(at id: Int64, _ plan: RoutePlan, now: Date) async throws {
        let zone = regions.timeZone(of: plan)
        guard plan.travelsOnDay(of: now, in: zone), plan.timePreference != .leaveNow,
              let planned = plan.departureTimes(startingAt: now).first ?? nil else { return }
        let reminder = try await store.read(Reminders.reminder(ofPlan: id))
        let lead = reminder?.lead ?? settings.lead
        // Far from due (a walk from here takes less than `walkHorizon`): no street query yet.
        guard now >= planned.addingTimeInterval(-lead - Self.walkHorizon) else { return }
        let walk = await walkFromHere(to: plan, id: id, now: now)
        let leave = planned.addingTimeInterval(-(walk ?? 0))
        if reminder?.enabled ?? true, now >= leave.addingTimeInterval(-lead), now < leave {
            // One a plan and day: a leave time that moves later is a change notice's news, not a second reminder.
            await send(Notice(planID: id, key: NoticeKey.leave(at: leave, in: zone), kind: "leave",
                        title: ReminderText.leaveTitle(plan, leaveAt: leave, zone: zone),
                        body: ReminderText.leaveBody(plan, leaveAt: leave, zone: zone, walkFromHere: walk),
                        leaveAt: leave, zone: zone), now: now)
        }
        // Missed: before the planned leave time, from here the traveller no longer catches a fixed departure.
        let earliest = now.addingTimeInterval(walk ?? 0)
        if now <= planned, let segment = plan.missedConnection(leavingAt: earliest),
           let departure = plan.legs[segment]?.departure, departure > now {
            // A journey caught at its start but missed at a change a delay broke names the change,
            // not its first departure, which is still caught (trial 58 F1).
            let brokenAt = plan.missedChange(leavingAt: earliest).flatMap { $0.segment == segment ? $0 : nil }
            let missedRide = brokenAt.flatMap { plan.legs[segment]?.rides[$0.ride] }
            await change(Notice(planID: id, key: NoticeKey.missedConnection(step: segment + 1, departure: missedRide?.boarding.time ?? departure,
                                                                          in: zone),
                          kind: "missed_connection", title: "Missed connection: \(ReminderText.destination(of: plan) ?? "your trip")",
                          body: ReminderText.missedConnectionBody(plan, id: id, segment: segment, change: brokenAt, zone: zone),
                          leaveAt: nil, zone: zone))
        }
    }

    /// The plans as kept in memory, read (`PlanRepository`) when not read yet (a plan that cannot
    /// be read is left out, as it cannot be reminded of). Plans that change while they are
    /// read are read again afterwards, so the first read never keeps an older copy.
    private func storedPlans() async throws -> [Int64: RoutePlan] {
        if let kept { return kept }
        readingAll = true
        changedWhileReading = []
        defer { readingAll = false }
        var read: [Int64: RoutePlan] = [:]
        for summary in try await plans.list() {
            read[summary.id] = try? await plans.show(id: summary.id).plan
        }
        kept = read
        let changed = changedWhileReading
        changedWhileReading = []
        for id in changed { await reload(id) }
        return kept ?? read
    }

    /// Reads one plan again after it changed (created, edited, refreshed); a deleted one is
    /// dropped. When it cannot be read for another reason, all are read again at the next look.
    private func reload(_ id: Int64) async {
        guard kept != nil else {
            if readingAll { changedWhileReading.insert(id) } // the read under way may have an older copy
            return
        }
        let ticket = reloads.begin(id)
        let read: Result<RoutePlan, Error>
        do { read = .success(try await plans.show(id: id).plan) } catch { read = .failure(error) }
        guard reloads.finish(ticket, of: id) else { return } // a newer reload of this plan decides
        switch read {
        case .success(let plan): kept?[id] = plan
        case .failure(DaemonError.notFound): forget(id)
        case .failure: kept = nil
        }
    }

    private func forget(_ id: Int64) {
        if readingAll { changedWhileReading.insert(id) }
        reloads.cancel(id)
        kept?[id] = nil
        walks[id] = nil
        waiting[id] = nil
    }

    /// The walk from a fresh fix that is not at the plan's first node to it (a street query,
    /// asked once per fix); `nil` without one.
    private func walkFromHere(to plan: RoutePlan, id: Int64, now: Date) async -> TimeInterval? {
        guard let fix = location.current, now.timeIntervalSince(fix.at) < Self.freshFix, let first = plan.nodes.first,
              fix.coordinate.distance(to: first.place.coordinate) > Self.atNodeMetres else { return nil }
        if let known = walks[id], known.fixAt == fix.at { return known.seconds }
        let query = LegQuery(from: Place(name: "here", coordinate: fix.coordinate), to: first.place, mode: .walk,
                             timing: .departAt(now), pace: plan.pace, access: plan.access)
        let seconds = try? await router.leg(for: query).expectedTravelTime
        walks[id] = (fix.at, seconds)
        return seconds
    }

    // MARK: - Change notices from the daemon's events

    private func take(_ event: DaemonEvent) async {
        let id: Int64
        switch event {
        // Every change of a stored plan is a `plan_recomputed` (a `pending_update` comes after one).
        case .planRecomputed(let planID, _, _): await reload(planID); return
        case .planDeleted(let planID): forget(planID); return
        case .pendingUpdate(let planID, _): id = planID
        case .delay(let ride, _, _, _, _, _), .cancelled(let ride): id = ride.planID
        default: return
        }
        guard let plan = if let plan = kept?[id] { plan } else { try? await plans.show(id: id).plan } else { return }
        let now = clock.now(), zone = regions.timeZone(of: plan)
        guard plan.travelsOnDay(of: now, in: zone) else { return }
        let to = ReminderText.destination(of: plan) ?? "your trip"
        switch event {
        case .pendingUpdate(_, let segments):
            let numbers = segments.map(String.init).joined(separator: ", ")
            await change(Notice(planID: id, key: NoticeKey.pendingUpdate(numbers, at: now, in: zone),
                          kind: "pending_update", title: "Trip to \(to) changed",
                          body: "The timetable changed for step \(numbers): `umctl plan show \(id)` has the new proposal",
                          leaveAt: nil, zone: zone))
        case .delay(let ride, let departure, _, let eventZone, let delay, let moved):
            // Against the timetable, as the traveller compares it with the stop's schedule; only a
            // ride without a live time known (never, for an event from live data) says the move.
            let at = ReminderText.clock(departure, zone)
            // The key as the event showed the departure (a change of its format would notify again).
            let key = NoticeKey.delay(tripID: ride.tripID, departure: departure, in: eventZone)
            await change(Notice(planID: id, key: key, kind: "delay",
                          title: ReminderText.delayTitle(line: ride.line, delaySeconds: delay ?? moved),
                          body: "It leaves \(ride.from) at \(at) (trip to \(to))", leaveAt: nil, zone: zone))
        case .cancelled(let ride):
            await change(Notice(planID: id, key: NoticeKey.cancelled(tripID: ride.tripID), kind: "cancelled",
                          // A trip that runs past the stop is not "cancelled" (trial 58 F6).
                          title: ride.skippedStop.map { "Line \(ride.line) does not stop at \($0)" } ?? "Line \(ride.line) from \(ride.from) is cancelled",
                          body: "Your trip to \(to) needs another ride",
                          leaveAt: nil, zone: zone))
        default:
            return
        }
    }

    /// Sends a change notice now, or when its plan's minute is over (the newest waiting wins).
    private func change(_ notice: Notice) async {
        guard !sent.contains("\(notice.planID) \(notice.key)") else { return }
        let now = clock.now()
        if await !mayNotify(notice.planID, now: now) || waiting[notice.planID] != nil {
            if (try? await store.read(Reminders.sentNotices(plan: notice.planID)).contains { $0.notice == notice.key }) != true {
                waiting[notice.planID] = notice
            }
            return
        }
        await send(notice, now: now)
    }

    /// Whether the plan's last notice (after a restart, the stored one) is a minute old.
    private func mayNotify(_ id: Int64, now: Date) async -> Bool {
        var last = lastSent[id]
        if last == nil { last = (try? await store.read(Reminders.sentNotices(plan: id)).last?.sentAt) ?? nil }
        guard let last else { return true }
        return now.timeIntervalSince(last) >= Self.noticeInterval
    }

    // MARK: - Sending

    /// Sends `notice` unless it was sent before (stored), replacing the plan's earlier one.
    private func send(_ notice: Notice, now: Date) async {
        let name = "\(notice.planID) \(notice.key)"
        guard !sent.contains(name) else { return }
        do {
            let isNew = try await store.write(Reminders.recordSentNotice(plan: notice.planID, SentNotice(notice: notice.key, serverID: nil, sentAt: now)))
            sent.insert(name)
            guard isNew else { return }
        } catch {
            logger.warning("cannot record a notification", ["plan": String(notice.planID), "error": "\(error)"])
            return
        }
        lastSent[notice.planID] = now
        var replaces = latestID[notice.planID]
        if replaces == nil { replaces = (try? await store.read(Reminders.sentNotices(plan: notice.planID)).compactMap(\.serverID).last) ?? nil }
        let actions = notice.kind == "leave" ? [Self.openAction, Self.snoozeAction] : []
        notifier.send(DesktopNotification(summary: notice.title, body: notice.body, actions: actions, replacesID: replaces ?? 0)) { result in
            Task { await self.answered(notice, result) }
        }
    }

    private func answered(_ notice: Notice, _ result: Result<UInt32, NotificationFailure>) async {
        switch result {
        case .success(let id):
            shown[id] = notice
            latestID[notice.planID] = id
            try? await store.write(Reminders.setServerID(id, plan: notice.planID, notice: notice.key))
            failureLogged = false
        case .failure(let failure):
            if !failureLogged {
                failureLogged = true
                logger.warning("desktop notifications are not shown; `watch` still gets them",
                               ["code": failure.code, "error": failure.message])
            }
        }
        let shownNow = (try? result.get()) != nil
        events.publish(.reminder(.init(planID: notice.planID, notice: notice.kind, title: notice.title, body: notice.body,
                                       leaveAt: notice.leaveAt, timeZone: notice.zone, shown: shownNow)))
    }

    /// `xdg-open` with the first leg's Google Maps link (the one `plan link` prints).
    private func openRoute(of id: Int64) async {
        guard let plan = try? await plans.show(id: id).plan,
              let link = try? GoogleMapsLink.build(plan: plan, segment: 0, timeZone: regions.timeZone(of: plan), now: clock.now())
        else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", link.url]
        do {
            try process.run()
        } catch {
            logger.warning("cannot run xdg-open for a plan's route", ["plan": String(id), "error": "\(error)"])
        }
    }
}
