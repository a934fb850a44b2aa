import Foundation
import Planner
import Store
import Synchronization

/// The only reader and writer of stored plans: every request, service and background part that
/// reads a plan (shown, listed, reminded of, exported, refreshed) or changes one (created, edited,
/// refreshed, deleted) goes through it. It serialises the edits of each plan and keeps stale
/// results out of the store; one `apply(to:policy:expected:_:)` takes every change of a plan.
///
/// An edit (`PlanWritePolicy.edit`) is applied to the newest plan at once and written (so it survives a crash, with the
/// touched legs empty), then the legs are computed in a child task of the edit. A newer edit
/// of the same plan cancels that computation; every edit bumps the plan's generation, and a computed plan is stored only
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
/// A list of edits (`.atomic`) is computed whole on a copy and stored as one generation with one
/// write, or nothing when the plan moved meanwhile (`conflict`).
///
/// A background change (`.background`: the refresh after a timetable change) gives way to users: it is
/// computed without taking a generation, and stored only if no user request on the plan is
/// under way (from the read that prepares it until its answer: every `.edit` and `.atomic`) and the plan
/// did not move meanwhile; else it changes nothing and fails with `conflict`, and is tried
/// again once the plan is free (`untilFree`). A user's request is never cut short by it,
/// never answered with its plan, and never overwritten by it.
public actor PlanRepository {
    /// A plan this run has read or changed. There is none before its generation was known (read
    /// from the store, or the plan created here).
    private struct Entry {
        var generation: Int64
        /// The newest generation the store has (`generation` once its write landed).
        var stored: Int64
        /// The newest computation an edit started, until the edit that owns it ends it.
        var computation: Computation?
        var failures: [Int: RoutingError] = [:]
        /// The plan as last written (or being written) by this repository.
        var newest: (plan: RoutePlan, title: String)?
        /// Callers of `settled` waiting for `computation` to end (resumed when its owner clears it).
        var settling: [CheckedContinuation<Void, Never>] = []
    }

    /// A computation under way, and how a newer change cancels it (`supersede.finish()`).
    private struct Computation {
        let number: UInt64
        let supersede: AsyncStream<Void>.Continuation
    }

    /// The order of one plan's writes: each is given the next turn when it is queued, and runs
    /// once the turns before it ended (so the actor is free while a write waits for the disk).
    private struct WriteTurns {
        var queued = 0
        var ended = 0
        var waiting: [(turn: Int, waiter: CheckedContinuation<Void, Never>)] = []
    }

    /// A durable write of one plan, with its turn.
    private struct QueuedWrite: Sendable {
        var id: Int64
        var turn: Int
        var plan: RoutePlan
        var title: String
        var generation: Int64
        var legsPending: Bool
        var searches: [SearchHistoryEntry]
    }

    private let store: Store
    private let counters: DaemonCounters
    private let events: EventHub
    private var entries: [Int64: Entry] = [:]
    /// Each plan's writes in order; kept when the plan is forgotten, so a delete waits for them.
    private var writeTurns: [Int64: WriteTurns] = [:]
    /// Computations started in this run (each is numbered, so its owner knows it is still the newest).
    private var computationsStarted: UInt64 = 0
    /// Deleted plans (an id is never given again): a read that raced the delete keeps no entry.
    private var deleted: Set<Int64> = []
    /// User requests under way on each plan (`.edit` and `.atomic`): a background change waits for none.
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
            guard writeTurns[id] == nil else { continue } // a client edited it already
            do {
                _ = try await edit(id: id, expected: nil, PlanChanges(change: nil, compute: compute)) // stored already, legs pending
                done.append(id)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failed[id] = error
            }
        }
        return (done, failed)
    }

    /// The newest plan, as it is (no routing). The writes of the plan under way are waited for:
    /// only a stored generation is shown (one whose write fails is taken again by the next edit).
    public func show(id: Int64) async throws -> Outcome {
        await writesSettled(id)
        let current = try await newest(id)
        return Outcome(id: id, plan: current.plan, title: current.title, generation: current.generation,
                       failures: entries[id]?.failures ?? [:])
    }

    /// The stored plans, as the list shows them (the newest write of each landed: `show` waits for it).
    public func list() async throws -> [PlanSummary] {
        try await store.read(Plans.list())
    }

    /// Every stored plan as `show` answers it, in the order of `list`; one deleted meanwhile is
    /// left out. `unreadable` is told of one that cannot be read, and may throw its error (by
    /// default) or leave it out.
    public func showAll(unreadable: @Sendable (Int64, Error) throws -> Void = { throw $1 }) async throws -> [Outcome] {
        var shown: [Outcome] = []
        for summary in try await list() {
            do {
                shown.append(try await show(id: summary.id))
            } catch DaemonError.notFound {
                continue // deleted since the list was read
            } catch {
                try unreadable(summary.id, error)
            }
        }
        return shown
    }

    /// Stores a new plan at generation 1 (with its route history entry and searches, in the same
    /// transaction: `Plans.create`), and counts and announces it once.
    public func create(_ plan: RoutePlan, title: String, recording route: RouteHistoryEntry? = nil,
                       searches: [SearchHistoryEntry] = [], failures: [Int: RoutingError], queries: Int) async throws -> Outcome {
        let id = try await store.write(Plans.create(plan, title: title, recording: route, searches: searches))
        created(id: id, failures: failures)
        counters.countPlanRecomputed()
        events.publish(.planRecomputed(planID: id, generation: 1, queries: queries))
        return Outcome(id: id, plan: plan, title: title, generation: 1, failures: failures)
    }

    /// Remembers a plan created elsewhere (stored at generation 1: `Plans.create`) with its
    /// failures, unless this run knows it already (a client read or edited the new id first:
    /// its generation and plan are newer than the creation's).
    public func created(id: Int64, failures: [Int: RoutingError]) {
        guard entries[id] == nil else { return }
        entries[id] = Entry(generation: 1, stored: 1, computation: nil, failures: failures)
    }

    /// Deletes the plan if it is at `expectedGeneration`, and announces it: the check
    /// and taking the plan out of every edit's reach are one step of the actor, so no edit comes
    /// between them to be lost with the plan; edits under way are cancelled and answer
    /// `not_found`. The delete runs after the plan's writes under way. When it fails, the plan
    /// is as stored again.
    /// - parameter deleting: the store's delete (`Plans.delete`) unless given: a test steps in
    ///   between the check and the delete with it.
    public func delete(id: Int64, expectedGeneration: Int64?,
                       deleting: (@Sendable () async throws -> Void)? = nil) async throws {
        let current = try await newest(id)
        try check(id, generation: current.generation, expectedGeneration: expectedGeneration)
        let writes = writeTurns[id]?.queued ?? 0
        forget(id: id)
        do {
            await writesEnded(id, through: writes)
            if let deleting { try await deleting() } else { try await store.write(Plans.delete(id)) }
        } catch StoreError.notFound {
            deleted.remove(id)
            throw DaemonError.notFound("plan \(id) does not exist")
        } catch {
            deleted.remove(id)
            throw error
        }
        events.publish(.planDeleted(planID: id))
    }

    /// `conflict` unless the plan is at `expectedGeneration` (after its writes under way), for a
    /// change beside its generation (a reminder); nil allows any.
    public func require(id: Int64, expectedGeneration: Int64?) async throws {
        guard let expectedGeneration else { return }
        try check(id, generation: try await show(id: id).generation, expectedGeneration: expectedGeneration)
    }

    public func forget(id: Int64) {
        deleted.insert(id)
        entries[id]?.computation?.supersede.finish()
        let waiting = entries[id]?.settling ?? []
        entries[id] = nil
        for waiter in waiting { waiter.resume() }
        noteBusy(id)
    }

    /// A user's request on plan `id` begins (its reads, its slow preparation and its change):
    /// the plan is busy until it ends, and a background change does not store itself meanwhile.
    private func userRequestBegins(_ id: Int64) {
        userRequests[id, default: 0] += 1
        noteBusy(id)
    }

    private func userRequestEnds(_ id: Int64) {
        userRequests[id, default: 1] -= 1
        if userRequests[id] == 0 { userRequests[id] = nil }
        noteBusy(id)
    }

    /// Whether a user's request, or a computation an edit started, is under way on the plan.
    public func isBusy(_ id: Int64) -> Bool {
        userRequests[id] != nil || entries[id]?.computation != nil
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

    /// Every change of a stored plan: `changes` is worked out from the plan as read (the slow part:
    /// places searched, the planner asked), outside the actor, then stored by `policy`:
    /// - `.edit`: the change is applied to the newest plan (node and segment numbers read against
    ///   it), written, then its emptied legs are computed and written if no newer edit came in.
    /// - `.atomic`: `changes` computes the whole result on the plan as read; it is stored as one
    ///   new generation with one write unless the plan moved meanwhile (`conflict`).
    /// - `.background`: as `.atomic`, and it steps aside (`conflict`, nothing changed) while a
    ///   user's request on the plan is under way, at its start or when it would be stored.
    /// `.edit` and `.atomic` are a user's request from their first read to their answer.
    /// - parameter expected: when given, the change fails with `conflict` (changing nothing)
    ///   unless the plan is at that generation.
    public func apply(to id: Int64, policy: PlanWritePolicy, expected: Int64? = nil,
                      _ changes: @Sendable (RoutePlan, String) async throws -> PlanChanges) async throws -> Outcome {
        switch policy {
        case .edit:
            userRequestBegins(id)
            defer { userRequestEnds(id) }
            let current = try await newest(id, keep: true) // the one read of the plan before the edit
            let prepared = try await changes(current.plan, current.title)
            var outcome = try await edit(id: id, expected: expected, prepared)
            outcome.matched = prepared.matched
            outcome.modeNotes = prepared.modeNotes(outcome.plan)
            return outcome
        case .atomic(let dryRun):
            userRequestBegins(id)
            defer { userRequestEnds(id) }
            return try await atomically(id: id, expected: expected, dryRun: dryRun, background: false, changes)
        case .background:
            return try await atomically(id: id, expected: expected, dryRun: false, background: true, changes)
        }
    }

    /// `.edit`: applies `change` to the newest plan, writes it, then computes with `compute` and
    /// writes the result if no newer edit came in meanwhile.
    /// - parameter change: validates and edits; throwing leaves the plan untouched. Nil when the
    ///   computation is the whole edit (a preset, a rebuild, refine, the start's recompute): the
    ///   plan is then computed first and takes a generation only when the result differs from
    ///   the plan (title included), written once; a computation that changes nothing answers the
    ///   plan at its generation and writes nothing. When that computed write fails, the edit
    ///   fails with its error. A newer edit meanwhile still cancels it (it owns the plan's computation).
    ///   `compute` fills the legs; `title` and `searches` are stored with the change.
    private func edit(id: Int64, expected expectedGeneration: Int64?, _ changes: PlanChanges) async throws -> Outcome {
        let change = changes.change, compute = changes.compute, newTitle = changes.title, searches = changes.searches
        let current = try await newest(id, keep: true)
        try check(id, generation: current.generation, expectedGeneration: expectedGeneration)
        let edited = try change?(current.plan) ?? current.plan
        let title = newTitle ?? current.plan.title(current.title, after: edited)
        // A computation alone takes its generation once it is known to change the plan.
        var generation = change == nil ? current.generation : current.generation + 1
        let (number, superseded) = startComputation(id) // `newest` made the entry; nothing ran since
        entries[id]?.generation = generation
        noteBusy(id)
        entries[id]?.failures = [:]
        // The change takes its write turn now, and is written while its legs are computed: both
        // are children of this edit.
        let changeWrite = change == nil ? nil
            : queueWrite(id, edited, title: title, generation: generation, legsPending: true, searches: searches)
        async let changeWritten = runWrite(changeWrite)

        var computed: LegComputation?
        var failure: Error?
        do {
            computed = try await Self.compute(edited, with: compute, unlessSuperseded: superseded)
        } catch {
            failure = error
        }
        var written: Result<Void, Error>?
        if failure == nil {
            written = await changeWritten
            if case .failure(let notStored) = written { failure = notStored }
        }
        if let error = failure {
            // Whoever owns the newest computation clears it when it ends, stored or not, so that
            // edits waiting in `settled` never wait on a finished one. (A failed write put the
            // generation back already: see `runWrite`.)
            let isSuperseded = entries[id].map { $0.computation?.number != number } ?? false
            if !isSuperseded {
                computationEnded(id)
                entries[id]?.newest = nil // what was written is what the store says
            }
            if written == nil { written = await changeWritten }
            if case .failure(let notStored)? = written { throw notStored } // the edit failed
            if error is CancellationError, !Task.isCancelled, isSuperseded {
                return try await settled(id: id)
            }
            throw error
        }
        guard let computed, entries[id]?.generation == generation, entries[id]?.computation?.number == number else {
            return try await settled(id: id) // a newer edit owns the plan now; this result is stale
        }
        let failures = computed.failuresBySegment
        entries[id]?.failures = failures
        computationEnded(id)
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
            try await runWrite(queueWrite(id, computed.plan, title: computedTitle, generation: generation, legsPending: false,
                                          searches: change == nil ? searches : [])).get()
        } catch where change == nil {
            // The computation was the change, and it is not stored: the edit failed. The plan is
            // as stored, at its generation (`runWrite` put it back).
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

    /// `.atomic` and `.background`: works out `changes` (every change and the one computation)
    /// on a copy of the newest plan, and stores the result as one new generation with one write:
    /// all or nothing. Nothing is written, and the generation stays, when `changes` throws, when
    /// the plan moved on while it ran (`conflict`), or for a `dryRun` (whose result is returned,
    /// not stored). The title is the one `changes` gives (edit by edit, or a new one when an edit
    /// renamed it), else it follows the plan.
    /// - parameter background: the change is the daemon's own (the background refresh): it steps
    ///   aside (`conflict`, nothing changed) when a user's request on the plan is under way, at
    ///   its start or when it would be stored.
    private func atomically(
        id: Int64, expected expectedGeneration: Int64?, dryRun: Bool, background: Bool,
        _ changes: @Sendable (RoutePlan, String) async throws -> PlanChanges
    ) async throws -> Outcome {
        if background { try stepAsideIfBusy(id) }
        let current = try await newest(id)
        try check(id, generation: current.generation, expectedGeneration: expectedGeneration)
        let generation = current.generation
        let prepared = try await changes(current.plan, current.title)
        let computed = try await prepared.compute(try prepared.change?(current.plan) ?? current.plan)
        let title = prepared.title ?? current.plan.title(current.title, after: computed.plan)
        let searches = prepared.searches
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
                           removedPins: removedPins, matched: prepared.matched)
        }
        entries[id]?.computation?.supersede.finish() // the guard above found the entry
        entries[id]?.generation = generation + 1
        entries[id]?.failures = failures
        computationEnded(id)
        // When the write fails its transaction rolled back: the plan is as stored, and so is its
        // generation (`runWrite` puts it back).
        try await runWrite(queueWrite(id, computed.plan, title: title, generation: generation + 1, legsPending: false,
                                      searches: searches)).get()
        announce(id, generation: generation + 1, computed, before: current.plan)
        return Outcome(id: id, plan: computed.plan, title: title, generation: generation + 1, failures: failures,
                       removedPins: removedPins, matched: prepared.matched)
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

    /// Takes the plan's next write turn for `plan` at `generation`, and makes it the plan the next
    /// edit sees (and `show`, once written). `runWrite` then writes it, in turn.
    private func queueWrite(_ id: Int64, _ plan: RoutePlan, title: String, generation: Int64, legsPending: Bool,
                            searches: [SearchHistoryEntry] = []) -> QueuedWrite {
        writeTurns[id, default: WriteTurns()].queued += 1
        entries[id]?.newest = (plan, title)
        return QueuedWrite(id: id, turn: writeTurns[id]?.queued ?? 1, plan: plan, title: title, generation: generation,
                           legsPending: legsPending, searches: searches)
    }

    /// Writes `write` (nothing for nil) durably after the plan's earlier writes, on the store's
    /// writer thread while the actor serves others. When it lands the store has that generation;
    /// when it fails and no newer edit took one, the plan is as stored: its generation goes back
    /// (`show` waited, so the failed one was not shown) and the next read is the store's.
    private func runWrite(_ write: QueuedWrite?) async -> Result<Void, Error> {
        guard let write else { return .success(()) }
        await writesEnded(write.id, through: write.turn - 1) // in order; an earlier failure was its own edit's
        defer { writeEnded(write.id, turn: write.turn) }
        do {
            try await store.write(Plans.save(id: write.id, plan: write.plan, title: write.title, legsPending: write.legsPending,
                                             generation: write.generation, searches: write.searches))
        } catch {
            notStored(write.id, generation: write.generation)
            return .failure(error)
        }
        stored(write.id, generation: write.generation)
        return .success(())
    }

    /// Returns once the plan's writes up to `turn` ended (landed or failed).
    private func writesEnded(_ id: Int64, through turn: Int) async {
        guard (writeTurns[id]?.ended ?? 0) < turn else { return }
        await withCheckedContinuation { waiter in
            if (writeTurns[id]?.ended ?? 0) < turn {
                writeTurns[id, default: WriteTurns()].waiting.append((turn, waiter))
            } else {
                waiter.resume()
            }
        }
    }

    /// Returns once every write of the plan queued so far, and those queued meanwhile, ended.
    private func writesSettled(_ id: Int64) async {
        while let turns = writeTurns[id], turns.ended < turns.queued {
            await writesEnded(id, through: turns.queued)
        }
    }

    /// The plan's write `turn` ended (turns end in order): those waiting for it go on.
    private func writeEnded(_ id: Int64, turn: Int) {
        writeTurns[id]?.ended = turn
        let ready = writeTurns[id]?.waiting.filter { $0.turn <= turn } ?? []
        writeTurns[id]?.waiting.removeAll { $0.turn <= turn }
        for waiting in ready { waiting.waiter.resume() }
    }

    /// Starts the plan's newest computation: the one under way is superseded (its edit cancels
    /// it). Returns its number and the stream that ends when a newer change supersedes it.
    private func startComputation(_ id: Int64) -> (number: UInt64, superseded: AsyncStream<Void>) {
        entries[id]?.computation?.supersede.finish()
        computationsStarted += 1
        let (superseded, supersede) = AsyncStream<Void>.makeStream()
        entries[id]?.computation = Computation(number: computationsStarted, supersede: supersede)
        return (computationsStarted, superseded)
    }

    /// Runs `compute` on `plan` as a child task, cancelled when `superseded` ends (a newer change
    /// of the plan) or the caller is cancelled, and answers as it ends: a computation that was
    /// cancelled throws `CancellationError`, or gives its (stale) result if it ignored that.
    private nonisolated static func compute(_ plan: RoutePlan,
                                            with compute: @escaping @Sendable (RoutePlan) async throws -> LegComputation,
                                            unlessSuperseded superseded: AsyncStream<Void>) async throws -> LegComputation {
        try await withThrowingTaskGroup(of: LegComputation?.self) { group in
            group.addTask { try await compute(plan) }
            group.addTask {
                for await _ in superseded {}
                return nil // superseded, or this edit was cancelled
            }
            while let next = try await group.next() {
                group.cancelAll()
                if let computed = next { return computed }
            }
            throw CancellationError() // never: the computation's own end comes out of the loop
        }
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
        while entries[id]?.computation != nil {
            await withCheckedContinuation { waiter in
                if entries[id]?.computation != nil { entries[id]?.settling.append(waiter) } else { waiter.resume() }
            }
            try Task.checkCancellation()
        }
        return try await show(id: id) // after the plan's writes
    }

    /// The owner of the plan's newest computation is done with it: those waiting in `settled` go on.
    private func computationEnded(_ id: Int64) {
        entries[id]?.computation = nil
        let waiting = entries[id]?.settling ?? []
        entries[id]?.settling = []
        for waiter in waiting { waiter.resume() }
        noteBusy(id)
    }

    /// The plan as this repository last wrote it, else as stored (read on a store thread while
    /// the actor serves others; an edit written meanwhile wins over what was read), and its
    /// generation: this run's, else the stored one, which this run then goes on from.
    /// - parameter keep: keep the plan read as the newest (an edit that reads it again, or writes
    ///   it, follows). Only this repository writes plans, so it stays the stored plan until the
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
