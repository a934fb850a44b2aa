import Foundation
import Planner
import Store
import Synchronization

/// Serialises the edits of each plan and keeps stale results out of the store.
///
/// An edit is applied to the newest plan at once and written (so it survives a crash, with the
/// touched legs empty), then the legs are computed in a task. A newer edit of the same plan
/// cancels that task; every edit bumps the plan's generation, and a computed plan is stored only
/// while its generation is still the newest. An edit whose computation was superseded answers
/// with the newest plan once that one is computed.
///
/// The generation is stored with the plan, in the same transaction as the change that took it,
/// and read from the store the first time a plan is touched in a run. `show` waits for the
/// plan's writes under way, so a generation is shown only once stored; when the write that
/// took one fails (and no newer edit took another), the plan goes back to the stored
/// generation, and the next edit takes the same number again: no number ever shown names two
/// plans, also across a restart.
///
/// Store reads and writes (each write a durable transaction, two per edit; one for a computation
/// alone, none when it changed nothing) run on the store's
/// threads while the actor is free: the actor only decides, so reading or editing another
/// plan never waits for a plan's fsync or a read. One plan's writes are queued in order. The
/// newest plan an edit wrote is kept in memory meanwhile, so the next edit sees it even before
/// its write has landed (`show` waits for the write).
///
/// The write of the change decides the answer: when it fails, the edit answers that error and
/// the plan is as it was, its generation too. For a change, that is the first write (its legs marked
/// pending): once it landed, the edit is kept and answered with its legs, even if storing the
/// legs fails (the plan stays marked, and is recomputed by `recomputeInterrupted` at the next
/// start). For a computation alone, it is the computed write: its failure is the edit's.
///
/// A background change (the refresh after a timetable change) gives way to users: it is
/// computed without taking a generation, and stored only if no user request on the plan is
/// under way (from the read that prepares it until its answer: `userRequest`) and the plan
/// did not move meanwhile; else it changes nothing and fails with `conflict`, and is tried
/// again once the plan is free (`untilFree`). A user's request is never cut short by it,
/// never answered with its plan, and never overwritten by it.
public actor PlanCoordinator {
    public struct Outcome: Sendable {
        public var id: Int64
        public var plan: RoutePlan
        public var title: String
        public var generation: Int64
        public var failures: [Int: RoutingError]
        /// Pins of the plan before the edit that the edited plan no longer has.
        public var removedPins: [RemovedPin] = []
        /// The places the request typed as text, with how each matched (for the answer only).
        public var matched: [ResolvedPlace] = []
        /// Why the segments an insert made have the modes it chose (for the answer only).
        public var modeNotes: [String] = []
    }

    /// A pin an edit removed, with the names of its segment's ends in the plan before the edit.
    public struct RemovedPin: Sendable, Equatable {
        public var from: String
        public var to: String
        public var departure: Date

        /// The pins of `before` that `after` no longer has, in segment order. A pin is the same
        /// departure on the same trips wherever its segment is keyed: a location fix moves a
        /// current-location node and so re-keys the pins beside it without removing them. A new
        /// pin the user put on the same segment (pin, choose, accept) replaces it, not removes it.
        static func between(_ before: RoutePlan, _ after: RoutePlan) -> [RemovedPin] {
            let kept = after.pins.values
            return before.pinnedSegmentIndices.compactMap { index in
                guard let pin = before.pin(ofSegment: index), after.pins[pin.segment] == nil,
                      !kept.contains(where: { $0.departure == pin.departure && $0.tripIDs == pin.tripIDs }) else { return nil }
                return RemovedPin(from: before.nodes[index].place.name, to: before.nodes[index + 1].place.name,
                                  departure: pin.departure)
            }
        }
    }

    /// A plan this run has read or changed. There is none before its generation was known (read
    /// from the store, or the plan created here).
    private struct Entry {
        var generation: Int64
        /// The newest generation the store has (`generation` once its write landed).
        var stored: Int64
        var task: Task<LegComputation, Error>?
        var failures: [Int: RoutingError] = [:]
        /// The plan as last written (or being written) by this coordinator.
        var newest: (plan: RoutePlan, title: String)?
        /// The last write queued for this plan; the next one waits for it.
        var lastWrite: Task<Void, Error>?
        /// Callers of `settled` waiting for `task` to end (resumed when its owner clears it).
        var settling: [CheckedContinuation<Void, Never>] = []
    }

    private let store: Store
    private let counters: DaemonCounters
    private let events: EventHub
    private var entries: [Int64: Entry] = [:]
    /// Deleted plans (an id is never given again): a read that raced the delete keeps no entry.
    private var deleted: Set<Int64> = []
    /// User requests under way on each plan (`userRequest`): a background change waits for none.
    private var userRequests: [Int64: Int] = [:]
    /// The plans `isBusy` holds for, kept beside the actor's state (`noteBusy`) so that
    /// `untilFree` waits on them with `free` without the actor.
    private let busy = Mutex<Set<Int64>>([])
    /// Callers of `untilFree`, woken when a plan becomes free.
    private let free = Waiters()

    private let onLegsNotStored: @Sendable (Int64, Error) -> Void

    /// - parameter onLegsNotStored: told when an edit was stored but its computed legs were
    ///   not (the daemon logs it).
    public init(store: Store, counters: DaemonCounters, events: EventHub,
                onLegsNotStored: @escaping @Sendable (Int64, Error) -> Void = { _, _ in }) {
        self.store = store
        self.counters = counters
        self.events = events
        self.onLegsNotStored = onLegsNotStored
    }

    /// Recomputes, one after the other, the plans whose last recompute never stored its legs
    /// (the daemon was killed meanwhile). Returns the ids it recomputed and those it could not
    /// (still marked, so the next start tries again).
    public func recomputeInterrupted(
        compute: @escaping @Sendable (RoutePlan) async throws -> LegComputation
    ) async throws -> (done: [Int64], failed: [Int64: Error]) {
        let ids = try await store.read(Plans.withPendingLegs())
        var done: [Int64] = [], failed: [Int64: Error] = [:]
        for id in ids {
            try Task.checkCancellation()
            guard entries[id]?.lastWrite == nil else { continue } // a client edited it already
            do {
                _ = try await edit(id: id, change: nil, compute: compute) // stored already, legs pending
                done.append(id)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failed[id] = error
            }
        }
        return (done, failed)
    }

    /// The newest plan, as it is (no routing).
    /// - parameter forEdit: an edit is prepared on this plan and then applied to the newest one:
    ///   the plan read here is kept as the newest, so the edit does not read it a second time.
    ///   Else the writes of the plan under way are waited for: only a stored generation is shown
    ///   (one whose write fails is taken again by the next edit).
    public func show(id: Int64, forEdit: Bool = false) async throws -> Outcome {
        var waited: Task<Void, Error>?
        while !forEdit, let write = entries[id]?.lastWrite, write != waited {
            _ = await write.result
            waited = write
        }
        let current = try await newest(id, keep: forEdit)
        return Outcome(id: id, plan: current.plan, title: current.title, generation: current.generation,
                       failures: entries[id]?.failures ?? [:])
    }

    /// Remembers a plan created elsewhere (stored at generation 1: `Plans.create`) with its
    /// failures, unless this run knows it already (a client read or edited the new id first:
    /// its generation and plan are newer than the creation's).
    public func created(id: Int64, failures: [Int: RoutingError]) {
        guard entries[id] == nil else { return }
        entries[id] = Entry(generation: 1, stored: 1, task: nil, failures: failures)
    }

    /// Deletes the plan with `delete` (the store's) if it is at `expectedGeneration`: the check
    /// and taking the plan out of every edit's reach are one step of the actor, so no edit comes
    /// between them to be lost with the plan; edits under way are cancelled and answer
    /// `not_found`. The delete runs after the plan's writes under way. When it fails, the plan
    /// is as stored again.
    public func delete(id: Int64, expectedGeneration: Int64?, _ delete: @escaping @Sendable () async throws -> Void) async throws {
        let current = try await newest(id)
        try check(id, generation: current.generation, expectedGeneration: expectedGeneration)
        let writes = entries[id]?.lastWrite
        forget(id: id)
        do {
            _ = await writes?.result
            try await delete()
        } catch {
            deleted.remove(id)
            throw error
        }
    }

    /// `conflict` unless the plan is at `expectedGeneration` (after its writes under way), for a
    /// change beside its generation (a reminder); nil allows any.
    public func require(id: Int64, expectedGeneration: Int64?) async throws {
        guard let expectedGeneration else { return }
        try check(id, generation: try await show(id: id).generation, expectedGeneration: expectedGeneration)
    }

    public func forget(id: Int64) {
        deleted.insert(id)
        entries[id]?.task?.cancel()
        let waiting = entries[id]?.settling ?? []
        entries[id] = nil
        for waiter in waiting { waiter.resume() }
        noteBusy(id)
    }

    /// Runs `body`, a user's request on plan `id` (its reads, its slow preparation and its edit),
    /// marking the plan busy meanwhile: a background change does not store itself then.
    public func userRequest<T: Sendable>(on id: Int64, _ body: @Sendable () async throws -> T) async throws -> T {
        userRequests[id, default: 0] += 1
        noteBusy(id)
        defer {
            userRequests[id, default: 1] -= 1
            if userRequests[id] == 0 { userRequests[id] = nil }
            noteBusy(id)
        }
        return try await body()
    }

    /// Whether a user's request, or a computation an edit started, is under way on the plan.
    public func isBusy(_ id: Int64) -> Bool {
        userRequests[id] != nil || entries[id]?.task != nil
    }

    /// Returns once the plan is free (`isBusy` false), or the caller is cancelled.
    public nonisolated func untilFree(_ id: Int64) async {
        await free.wait { !self.busy.withLock { $0.contains(id) } }
    }

    /// Callers of `untilFree` waiting now (a test waits for its waiter to be registered).
    nonisolated var freeWaiterCount: Int { free.count }

    /// Records whether the plan is busy after a change of what `isBusy` reads, and wakes the
    /// callers of `untilFree` when it became free.
    private func noteBusy(_ id: Int64) {
        let isBusy = isBusy(id)
        busy.withLock { plans in
            if isBusy { plans.insert(id) } else { plans.remove(id) }
        }
        if !isBusy { free.notifyAll() }
    }

    /// Applies `change` to the newest plan, writes it, then computes with `compute` and writes
    /// the result if no newer edit came in meanwhile.
    /// - parameter change: validates and edits; throwing leaves the plan untouched. Nil when the
    ///   computation is the whole edit (a preset, a rebuild, refine, the start's recompute): the
    ///   plan is then computed first and takes a generation only when the result differs from
    ///   the plan (title included), written once; a computation that changes nothing answers the
    ///   plan at its generation and writes nothing. When that computed write fails, the edit
    ///   fails with its error. A newer edit meanwhile still cancels it (it owns the plan's task).
    /// - parameter compute: fills the legs (`Planner.computeLegsReporting` or a preset/rebuild).
    /// - parameter expectedGeneration: when given, the edit fails with `conflict` (changing
    ///   nothing) unless the plan is at that generation.
    /// - parameter searches: places typed as text in the edit, stored with it (or neither).
    public func edit(id: Int64, title newTitle: String? = nil, expectedGeneration: Int64? = nil,
                     searches: [SearchHistoryEntry] = [],
                     change: (@Sendable (RoutePlan) throws -> RoutePlan)?,
                     compute: @escaping @Sendable (RoutePlan) async throws -> LegComputation) async throws -> Outcome {
        let current = try await newest(id, keep: true)
        try check(id, generation: current.generation, expectedGeneration: expectedGeneration)
        let edited = try change?(current.plan) ?? current.plan
        let title = newTitle ?? current.plan.title(current.title, after: edited)
        // A computation alone takes its generation once it is known to change the plan.
        var generation = change == nil ? current.generation : current.generation + 1
        let task = Task { try await compute(edited) }
        entries[id]?.task?.cancel() // `newest` made the entry; nothing ran since
        entries[id]?.generation = generation
        entries[id]?.task = task
        noteBusy(id)
        entries[id]?.failures = [:]
        let editWritten = change == nil ? nil
            : write(id, edited, title: title, generation: generation, legsPending: true, searches: searches)

        let computed: LegComputation
        do {
            computed = try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
            try await editWritten?.value
        } catch {
            // Whoever owns the newest computation clears its task when it ends, stored or not,
            // so that edits waiting in `settled` never wait on a finished task. (A failed write
            // put the generation back already: see `queueWrite`.)
            let superseded = entries[id].map { $0.task != task } ?? false
            if !superseded {
                taskEnded(id)
                entries[id]?.newest = nil // what was written is what the store says
            }
            if case .failure(let notStored) = await editWritten?.result { throw notStored } // the edit failed
            if error is CancellationError, !Task.isCancelled, superseded {
                return try await settled(id: id)
            }
            throw error
        }
        guard entries[id]?.generation == generation, entries[id]?.task == task else {
            return try await settled(id: id) // a newer edit owns the plan now; this result is stale
        }
        let failures = computed.failuresBySegment
        entries[id]?.failures = failures
        taskEnded(id)
        // A computation may change the nodes too (a rebuild drops the stops): the title follows
        // the plan as computed, as it does when the same edit runs inside `plan.edits`.
        let computedTitle = newTitle ?? current.plan.title(current.title, after: computed.plan)
        if change == nil {
            if computed.plan == current.plan, computedTitle == current.title, searches.isEmpty {
                // Nothing changed (a refine that found nothing faster): no new generation, no write.
                return Outcome(id: id, plan: current.plan, title: current.title, generation: generation, failures: failures)
            }
            generation += 1
            entries[id]?.generation = generation
        }
        do {
            try await write(id, computed.plan, title: computedTitle, generation: generation, legsPending: false,
                            searches: change == nil ? searches : []).value
        } catch where change == nil {
            // The computation was the change, and it is not stored: the edit failed. The plan is
            // as stored, at its generation (`queueWrite` put it back).
            if entries[id]?.generation == generation { entries[id]?.newest = nil }
            throw error
        } catch {
            // The edit itself is stored; only its legs are not. Answer the edit (the plan
            // stays marked pending in the store) rather than an error for a kept change.
            onLegsNotStored(id, error)
        }
        announce(id, generation: generation, computed, before: current.plan)
        return Outcome(id: id, plan: computed.plan, title: computedTitle, generation: generation, failures: failures,
                       removedPins: RemovedPin.between(current.plan, computed.plan))
    }

    /// Applies `transform` (every change and the one computation) to a copy of the newest plan,
    /// and stores the result as one new generation with one write: all or nothing. Nothing is
    /// written, and the generation stays, when `transform` throws, when the plan moved on while
    /// it ran (`conflict`), or for a `dryRun` (whose result is returned, not stored).
    /// `transform` takes the plan and its title and returns, beside the computation, the searches
    /// typed in the edits, stored in the same write, and the plan's title after the edits
    /// (`RoutePlan.title(_:after:)` edit by edit, or a new one when an edit renamed it).
    /// - parameter background: the change is the daemon's own (the background refresh): it steps
    ///   aside (`conflict`, nothing changed) when a user's request on the plan is under way, at
    ///   its start or when it would be stored.
    public func applyAtomically(
        id: Int64, expectedGeneration: Int64?, dryRun: Bool, background: Bool = false,
        transform: @Sendable (RoutePlan, String) async throws -> (LegComputation, searches: [SearchHistoryEntry], title: String)
    ) async throws -> Outcome {
        if background { try stepAsideIfBusy(id) }
        let current = try await newest(id)
        try check(id, generation: current.generation, expectedGeneration: expectedGeneration)
        let generation = current.generation
        let (computed, searches, title) = try await transform(current.plan, current.title)
        try Task.checkCancellation()
        guard !deleted.contains(id) else { throw DaemonError.notFound("plan \(id) does not exist") }
        guard entries[id]?.generation == generation else {
            throw DaemonError.conflict("plan \(id) was edited by another request while these edits were computed; nothing was changed")
        }
        if background { try stepAsideIfBusy(id) }
        let failures = computed.failuresBySegment
        let removedPins = RemovedPin.between(current.plan, computed.plan)
        if dryRun {
            return Outcome(id: id, plan: computed.plan, title: title, generation: generation, failures: failures,
                           removedPins: removedPins)
        }
        entries[id]?.task?.cancel() // the guard above found the entry
        entries[id]?.generation = generation + 1
        entries[id]?.failures = failures
        taskEnded(id)
        // When the write fails its transaction rolled back: the plan is as stored, and so is its
        // generation (`queueWrite` puts it back).
        try await write(id, computed.plan, title: title, generation: generation + 1, legsPending: false,
                        searches: searches).value
        announce(id, generation: generation + 1, computed, before: current.plan)
        return Outcome(id: id, plan: computed.plan, title: title, generation: generation + 1, failures: failures,
                       removedPins: removedPins)
    }

    /// A stored computation is counted and announced, with the pending updates it proposed: those
    /// new or changed since `before` (a user's edit of a plan that had a proposal proposes nothing).
    private func announce(_ id: Int64, generation: Int64, _ computed: LegComputation, before: RoutePlan) {
        counters.countPlanRecomputed()
        events.publish(.planRecomputed(planID: id, generation: generation, queries: computed.queryCount))
        let proposed = computed.plan.pending.filter { before.pending[$0.key] != $0.value }
        if !proposed.isEmpty {
            events.publish(.pendingUpdate(planID: id, segments: proposed.keys.compactMap {
                computed.plan.segmentIndex(of: $0).map { $0 + 1 }
            }.sorted()))
        }
    }

    /// A background change gives way to users: `conflict` (nothing changed) while the plan is busy.
    private func stepAsideIfBusy(_ id: Int64) throws {
        guard isBusy(id) else { return }
        throw DaemonError.conflict("plan \(id) is being edited; the background change steps aside and changes nothing")
    }

    /// Optimistic concurrency: `conflict` when the plan, at `generation` (as `newest` read it), is
    /// not at `expectedGeneration`.
    private func check(_ id: Int64, generation: Int64, expectedGeneration: Int64?) throws {
        guard let expectedGeneration else { return }
        guard generation == expectedGeneration else {
            throw DaemonError.staleGeneration(plan: id, generation: generation, expected: expectedGeneration)
        }
    }

    /// Queues a durable write of `plan` at `generation` after this plan's earlier writes, on the
    /// store's writer thread, and makes it the plan the next edit sees (and `show`, once written).
    private func write(_ id: Int64, _ plan: RoutePlan, title: String, generation: Int64, legsPending: Bool,
                       searches: [SearchHistoryEntry] = []) -> Task<Void, Error> {
        let store = store
        let write = queueWrite(id, generation: generation) {
            try await store.write(Plans.save(id: id, plan: plan, title: title, legsPending: legsPending, generation: generation,
                                     searches: searches))
        }
        entries[id]?.newest = (plan, title)
        return write
    }

    /// Runs `body`, a write of the plan at `generation`, after the plan's earlier writes, on a
    /// store thread. When it lands the store has that generation; when it fails and no newer
    /// edit took one, the plan is as stored: its generation goes back (`show` waited, so the
    /// failed one was not shown) and the next read is the store's.
    private func queueWrite(_ id: Int64, generation: Int64,
                            _ body: @escaping @Sendable () async throws -> Void) -> Task<Void, Error> {
        let previous = entries[id]?.lastWrite
        let write = Task.detached { [self] in
            _ = await previous?.result // in order; an earlier failure was reported to its own edit
            do {
                try await body()
            } catch {
                await notStored(id, generation: generation)
                throw error
            }
            await stored(id, generation: generation)
        }
        entries[id]?.lastWrite = write
        return write
    }

    private func stored(_ id: Int64, generation: Int64) {
        entries[id]?.stored = generation
    }

    private func notStored(_ id: Int64, generation: Int64) {
        guard let entry = entries[id], entry.generation == generation, entry.stored != generation else { return }
        entries[id]?.generation = entry.stored
        entries[id]?.newest = nil
    }

    /// Waits for the newest computation of the plan (its owner ends it, stored or not, and
    /// wakes the waiters) and returns the plan as it is after it.
    private func settled(id: Int64) async throws -> Outcome {
        while entries[id]?.task != nil {
            await withCheckedContinuation { waiter in
                if entries[id]?.task != nil { entries[id]?.settling.append(waiter) } else { waiter.resume() }
            }
            try Task.checkCancellation()
        }
        _ = await entries[id]?.lastWrite?.result
        return try await show(id: id)
    }

    /// The owner of the plan's newest computation is done with it: those waiting in `settled` go on.
    private func taskEnded(_ id: Int64) {
        entries[id]?.task = nil
        let waiting = entries[id]?.settling ?? []
        entries[id]?.settling = []
        for waiter in waiting { waiter.resume() }
        noteBusy(id)
    }

    /// The plan as this coordinator last wrote it, else as stored (read on a store thread while
    /// the actor serves others; an edit written meanwhile wins over what was read), and its
    /// generation: this run's, else the stored one, which this run then goes on from.
    /// - parameter keep: keep the plan read as the newest (an edit that reads it again, or writes
    ///   it, follows). Only this coordinator writes plans, so it stays the stored plan until the
    ///   next write replaces it; plans that are only shown are not kept.
    private func newest(_ id: Int64, keep: Bool = false) async throws -> (plan: RoutePlan, title: String, generation: Int64) {
        if let entry = entries[id], let newest = entry.newest { return (newest.plan, newest.title, entry.generation) }
        let stored: StoredPlan
        do {
            stored = try await store.read(Plans.load(id))
        } catch StoreError.notFound {
            if let entry = entries[id], let newest = entry.newest { return (newest.plan, newest.title, entry.generation) }
            throw DaemonError.notFound("plan \(id) does not exist")
        }
        guard !deleted.contains(id) else { throw DaemonError.notFound("plan \(id) does not exist") }
        var entry = entries[id] ?? Entry(generation: stored.generation, stored: stored.generation)
        let newest = entry.newest ?? (stored.plan, stored.title)
        if keep { entry.newest = newest }
        entries[id] = entry
        return (newest.plan, newest.title, entry.generation)
    }
}

extension LegComputation {
    /// The failures keyed by 0-based segment (the first failure of a segment wins).
    var failuresBySegment: [Int: RoutingError] {
        Dictionary(failures.map { ($0.segment, $0.error) }, uniquingKeysWith: { first, _ in first })
    }
}
