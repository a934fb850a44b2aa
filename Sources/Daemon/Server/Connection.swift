import Executors
import Foundation
import Glibc
import Synchronization
import WireProtocol

/// One client connection. Its own thread does all the socket I/O, never blocking on a slow
/// client: it reads requests while fewer than `maxInFlight` are unanswered and sends what
/// the answering task queued (`OutputQueue`, bounded by `maxOutputBytes`). The task answers
/// requests in order and only ever queues, so a client that stops reading cannot hold a task
/// of the shared pool. A request the I/O thread can answer from memory (`status`, `hello`:
/// `MethodTable.register(_:atOnce:)` or `register(_:atOnceAnswering:)`) it answers itself when
/// nothing before it is unanswered, so that it never waits for the pool, which other clients'
/// work may keep busy. When the client hangs up, goes silent past the idle timeout or lets
/// too much output pile up, the connection closes and its queued and running work is cancelled.
final class Connection: Sendable {
    /// What the I/O thread hands the answering task. A line is parsed once, by the I/O thread
    /// when it looks for an at-once answer (`parsed`), else by the task (`line`).
    enum Item: Sendable {
        case line(Data)
        case parsed(RequestLine)
        case tooLong
    }

    /// A blank line (spaces and tabs) is no request: it is ignored, never parsed.
    static func isBlank(_ line: Data) -> Bool { line.allSatisfy { $0 == 0x20 || $0 == 0x09 } }

    private struct State {
        /// Set to make the I/O thread close the socket and end.
        var closed = false
        /// The I/O thread closed the descriptors: nobody may wake it any more.
        var descriptorsClosed = false
        var closeReason = CloseReason.stopping
        var draining = false
        /// Requests the dispatcher is answering now.
        var running = 0
        /// Request lines read whose answers are not yet handed to the kernel.
        var unanswered = 0
        /// The answering task is done: close once the output is sent.
        var answeringEnded = false
        /// After the output is sent, shut down writing and discard input (a line was too long).
        var shutWriteAfterOutput = false
        var droppedEvents = 0
        var output: OutputQueue
        var lastActivity = DispatchTime.now().uptimeNanoseconds
        var processing: Task<Void, Never>?
        /// What the I/O thread and the answering task answer with. Weak: the daemon owns it, and a
        /// connection whose thread or task is still ending must not keep the handlers (and the
        /// store) alive once the daemon stopped.
        weak var dispatcher: RequestDispatcher?
    }

    let id: Int
    let fd: Int32
    let peer: PeerCredentials
    private let limits: ConnectionLimits
    private let state: Mutex<State>
    /// A pipe that wakes the I/O thread when output is queued or the connection is closed.
    private let wakeRead: Int32, wakeWrite: Int32
    /// Files the client passed (`SCM_RIGHTS`) for its requests to take; see PassedFiles.swift.
    private let passedFiles: PassedFiles
    /// Shutdown waiting for the requests being answered to end (`idle`).
    private let requestEnded = Waiters()
    /// Where the I/O thread reports its at-once answers' times, when the bench asks (`AtOnceTrace`).
    private let trace: AtOnceTrace?

    /// Nil when the wake-up pipe cannot be made (out of descriptors).
    init?(id: Int, fd: Int32, peer: PeerCredentials, limits: ConnectionLimits, descriptors: DescriptorBudget? = nil,
          trace: AtOnceTrace? = AtOnceTrace.fromEnvironment) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        self.id = id
        self.fd = fd
        self.peer = peer
        self.limits = limits
        self.trace = trace
        passedFiles = PassedFiles(budget: descriptors)
        state = Mutex(State(output: OutputQueue(limit: limits.maxOutputBytes, eventLimit: limits.maxEventBytes)))
    }

    // MARK: - Queueing output (any thread; never blocks)

    /// Queues a whole line; false once the connection is closed or the client stopped reading.
    @discardableResult
    func write(_ data: Data, droppable: Bool = false, completesRequest: Bool = false) -> Bool {
        let queued = queue(data, droppable: droppable, completesRequest: completesRequest)
        wake()
        return queued
    }

    /// `write` without waking the I/O thread: for the I/O thread itself.
    private func queue(_ data: Data, droppable: Bool = false, completesRequest: Bool = false) -> Bool {
        state.withLock { state -> Bool in
            guard !state.closed else { return false }
            switch state.output.append(data, droppable: droppable, completesRequest: completesRequest) {
            case .queued: return true
            case .dropped(let count):
                state.droppedEvents += count
                return true
            case .overflow:
                state.closed = true
                state.closeReason = .notReading
                return false
            }
        }
    }

    /// Queues an event line (`watch`'s), dropped as events are when the client is behind, and
    /// sends it at once from the caller's thread (the event hub's) when nothing waits before it.
    /// The I/O thread is woken only when some of it is left to send after nothing waited: when
    /// something already waited, that thread is polling to send it and this follows. So an
    /// event costs a watcher one `send`, or a copy into its queue, and never a thread's wake-up.
    /// False once the connection is closed or the client stopped reading.
    @discardableResult
    func writeEvent(_ line: Data) -> Bool {
        let (queued, wakeNeeded) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed else { return (false, false) }
            let nothingWaited = state.output.isEmpty
            switch state.output.append(line, droppable: true, completesRequest: false) {
            case .queued: break
            case .dropped(let count): state.droppedEvents += count
            case .overflow:
                state.closed = true
                state.closeReason = .notReading
                return (false, true)
            }
            guard nothingWaited else { return (true, false) }
            // A failed send (the client went) is the I/O thread's to notice: the line stays queued.
            let sent = sendWaiting(&state)
            return (true, !sent || !state.output.isEmpty)
        }
        if wakeNeeded { wake() }
        return queued
    }

    @discardableResult
    func writeMessage<T: Encodable>(_ message: T, droppable: Bool = false, completesRequest: Bool = false) -> Bool {
        guard let line = try? WireCodec.line(for: message) else { return false }
        return write(line, droppable: droppable, completesRequest: completesRequest)
    }

    /// A request that gets no answer (a notification, a blank line) is done.
    private func requestDone() {
        state.withLock { $0.unanswered -= 1 }
        wake()
    }

    private func wake() {
        state.withLock { state in
            guard !state.descriptorsClosed else { return }
            var byte: UInt8 = 1
            _ = Glibc.write(wakeWrite, &byte, 1)
        }
    }

    // MARK: - Shutdown

    /// Requests the dispatcher is answering now.
    var inFlight: Int { state.withLock { $0.running } }

    /// Returns once no request is being answered (or the waiting task is cancelled).
    func idle() async {
        await requestEnded.wait { [self] in inFlight == 0 }
    }

    /// From now on new requests get `shutting_down`.
    func drain() { state.withLock { $0.draining = true } }

    /// Cancels the request being answered, if any.
    func cancel() {
        state.withLock { $0.processing }?.cancel()
    }

    /// Makes the I/O thread send what it can without waiting, close the socket and end.
    func close() {
        state.withLock { $0.closed = true }
        wake()
    }

    // MARK: - Serving

    /// Opened when the answering task has ended (the I/O thread waits on it; the task never blocks).
    private let answeringDone = Gate()

    /// Starts reading and answering. `onFinish` runs once, on the I/O thread, after the socket is closed.
    /// The answering task is started by the I/O thread when the first request needs it: a
    /// connection that only asks what the I/O thread answers (`status`, `hello`) costs no task.
    func start(dispatcher: RequestDispatcher, logger: DaemonLogger, on threads: ServerThreads,
               onFinish: @escaping @Sendable (Connection) -> Void) {
        state.withLock { $0.dispatcher = dispatcher }
        threads.start(name: "usefulmapd-connection-\(id)") { [self] in
            let (stream, continuation) = AsyncStream<Item>.makeStream()
            var record = AtOnceTrace.Record()
            if trace != nil { record.started() }
            let reason = serveSocket(continuation, trace: &record) { [self] in startAnswering(stream, logger: logger) }
            trace?.append(record, connection: id, peerPID: peer.pid)
            continuation.finish()
            // Counted before cancelling: a cancelled request may finish before this thread runs on.
            let (running, dropped, unsent, processing) = state.withLock { state in
                state.closed = true
                let unsent = state.output.byteCount
                state.output = OutputQueue(limit: limits.maxOutputBytes) // what was never sent is freed now
                return (state.running, state.droppedEvents, unsent, state.processing)
            }
            processing?.cancel() // the client is gone: what it queued is dropped, what runs is cancelled
            var fields = ["connection": String(id), "reason": reason.text]
            if running > 0 { fields["cancelled_requests"] = String(running) }
            if dropped > 0 { fields["dropped_events"] = String(dropped) }
            if reason == .hungUp, running > 0 {
                logger.info("client hung up; cancelling its request", fields)
            } else {
                logger.log(reason.isUnusual ? .notice : .debug, "connection closed", fields)
            }
            passedFiles.closeAll()
            // Many small lines a slow client never read, freed at once, leave malloc's arenas
            // holding the pages: give them back (not after answers that were sent, however big).
            if unsent > 64 << 10 { MemoryTrim.releaseFreePages() }
            state.withLock { state in
                state.descriptorsClosed = true
                Glibc.close(fd)
                Glibc.close(wakeRead)
                Glibc.close(wakeWrite)
            }
            // Finished only once its answering task has ended (it was cancelled above): until then
            // that task holds the handlers and the store, which the daemon closes after the last
            // connection is done. A plain thread of its own waits here, never a pool thread.
            if processing != nil { answeringDone.wait() }
            onFinish(self)
        }
    }

    /// Starts the answering task (on the I/O thread, before it hands over the first line).
    private func startAnswering(_ stream: AsyncStream<Item>, logger: DaemonLogger) {
        let processing = Task { [self] in
            await PassedFiles.$current.withValue(passedFiles) { await answer(stream, logger: logger) }
            state.withLock { $0.answeringEnded = true }
            wake()
            answeringDone.open()
        }
        state.withLock { $0.processing = processing }
    }

    /// Whether the answering task was started (a test checks that `status` alone starts none).
    var answeringStarted: Bool { state.withLock { $0.processing != nil } }

    /// The answering task: one request line after another, answers queued in order.
    private func answer(_ stream: AsyncStream<Item>, logger: DaemonLogger) async {
        for await item in stream {
            switch item {
            case .tooLong:
                writeMessage(WireResponse(id: nil, error: WireError(
                    .lineTooLong, "a request line is longer than \(WireLimits.maximumLineBytes) bytes; closing the connection")),
                    completesRequest: true)
                logger.notice("line too long; closing", ["connection": String(id)])
                // Closing at once would make the client's write fail before it reads this answer.
                state.withLock { $0.shutWriteAfterOutput = true }
                return
            case .line(let line) where Self.isBlank(line):
                requestDone()
            case .line(let line):
                // Parsed by the dispatcher when there is one (it counts for a test); gone means the daemon stopped.
                await answer(state.withLock { $0.dispatcher }?.parse(line) ?? WireCodec.requests(from: line))
            case .parsed(let request):
                await answer(request)
            }
        }
    }

    /// Answers one request line (parsed once, by the I/O thread or the task) and queues its answer.
    private func answer(_ request: RequestLine) async {
        // Taken per request (weakly held, see `State.dispatcher`); gone means the daemon stopped.
        let dispatcher = state.withLock { state -> RequestDispatcher? in
            guard !state.draining, let dispatcher = state.dispatcher else { return nil }
            state.running += 1
            return dispatcher
        }
        guard let dispatcher else {
            var id: RequestID?
            if case .single(.success(let request)) = request {
                guard let requestID = request.id else { return requestDone() } // a notification gets no answer
                id = requestID
            }
            write(WireCodec.errorAnswer(id: id, error: WireError(.shuttingDown, "usefulmapd is shutting down")) + [0x0A],
                  completesRequest: true)
            return
        }
        // Whatever runs on the shared pool (plans computed, edits, searches) is heavy
        // beside the I/O threads' at-once answers: its threads run below them.
        HeavyWorkPriority.current.lowerCurrentThread()
        let answer = await dispatcher.respond(to: request, connection: id, answerLimit: limits.maxOutputBytes,
                                              notifyLine: { [self] line in writeEvent(line) }) { [self] notification in
            writeMessage(notification, droppable: true)
        }
        // Queued before the request stops counting as running, so that shutdown's
        // wait for running requests also waits for their `cancelled` answers.
        if let answer { write(answer, completesRequest: true) } else { requestDone() }
        state.withLock { $0.running -= 1 }
        requestEnded.notifyAll()
    }

    /// The I/O loop; returns why the connection ended.
    private func serveSocket(_ continuation: AsyncStream<Item>.Continuation, trace record: inout AtOnceTrace.Record,
                             startAnswering: @escaping () -> Void) -> CloseReason {
        var framer = LineFramer()
        var buffer = [UInt8](repeating: 0, count: 65536)
        /// Lines read but held back by the in-flight limit (at most one read's worth).
        var waiting: [Item] = []
        var reading = true
        var discarding = false, discarded = 0
        var lingerDeadline: UInt64?
        let idleNanoseconds = UInt64(max(0, limits.idleTimeoutSeconds) * 1e9)
        /// Set until the answering task is started (or no longer may be).
        var answering: (() -> Void)? = startAnswering
        while true {
            let answeredHere = handOver(&waiting, to: continuation, startAnswering: &answering)
            if answeredHere > 0 {
                // Sent now, not after another turn of poll: the I/O thread is the one that queued them.
                let sent = flush()
                if trace != nil { record.answered(answeredHere, fullySent: sent && outputIsEmpty, now: DispatchTime.now().uptimeNanoseconds) }
                if !sent { return .hungUp }
            }
            if !reading, waiting.isEmpty {
                continuation.finish()
                // No answering task was needed: nothing is left to answer but what is queued.
                if answering != nil { answering = nil; state.withLock { $0.answeringEnded = true } }
            }
            let now = DispatchTime.now().uptimeNanoseconds
            let snapshot = state.withLock { state in
                (closed: state.closed, reason: state.closeReason, outputEmpty: state.output.isEmpty,
                 running: state.running, ended: state.answeringEnded,
                 shutWrite: state.shutWriteAfterOutput, lastActivity: state.lastActivity)
            }
            if snapshot.closed {
                _ = flush() // whatever fits without waiting (a `cancelled` or `shutting_down` answer)
                return snapshot.reason
            }
            if snapshot.outputEmpty {
                if snapshot.shutWrite, lingerDeadline == nil {
                    shutdown(fd, Int32(SHUT_WR))
                    lingerDeadline = now + 2_000_000_000
                }
                if snapshot.ended, !discarding { return .endOfInput }
            }
            if let lingerDeadline, now > lingerDeadline { return .lineTooLong }
            if snapshot.running == 0, now - snapshot.lastActivity > idleNanoseconds {
                return .idle
            }

            var events: Int16 = 0
            if discarding || (reading && waiting.isEmpty) { events |= Int16(POLLIN) }
            if !snapshot.outputEmpty { events |= Int16(POLLOUT) }
            var descriptors = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, 1000) // the timeout only paces the idle check
            if ready < 0 { continue }
            if descriptors[1].revents != 0 {
                var sink = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &sink, sink.count) > 0 {}
            }
            let revents = descriptors[0].revents
            if revents & Int16(POLLOUT) != 0, !flush() { return .hungUp }
            var readSomething = false
            if revents & Int16(POLLIN) != 0 {
                let count = passedFiles.read(from: fd, into: &buffer) // lines, and any files passed with them
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return .hungUp
                }
                if count == 0 {
                    // End of input: a half-close still wants its answers.
                    if discarding { return .lineTooLong }
                    reading = false
                } else {
                    readSomething = true
                    if trace != nil { record.readAt = DispatchTime.now().uptimeNanoseconds }
                    touch()
                    if discarding {
                        discarded += count
                        if discarded > 64 << 20 { return .lineTooLong }
                        continue
                    }
                    for event in framer.append(buffer[0..<count]) {
                        switch event {
                        case .line(let line): waiting.append(.line(line))
                        case .tooLong:
                            waiting.append(.tooLong)
                            reading = false
                            discarding = true // what the client still sends is read and dropped
                        }
                    }
                }
            }
            if !readSomething, revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .hungUp }
        }
    }

    /// Passes waiting lines to the answering task while fewer than `maxInFlight` are unanswered,
    /// answering those it can at once itself; returns how many it answered (queued, not sent).
    private func handOver(_ waiting: inout [Item], to continuation: AsyncStream<Item>.Continuation,
                          startAnswering: inout (() -> Void)?) -> Int {
        var handed = 0, answered = 0
        while handed < waiting.count {
            if answeredAtOnce(&waiting[handed]) {
                handed += 1
                answered += 1
                continue
            }
            let admitted = state.withLock { state -> Bool in
                guard state.unanswered < limits.maxInFlight else { return false }
                state.unanswered += 1
                return true
            }
            guard admitted else { break }
            if let start = startAnswering {
                startAnswering = nil
                start()
            }
            continuation.yield(waiting[handed])
            handed += 1
        }
        waiting.removeFirst(handed)
        return answered
    }

    /// Answers `item` on this thread, when it is a request answered at once and every request
    /// before it has its answer queued (so that answers stay in order: a `hello` and a `status`
    /// in one write are both answered here); false to leave it to the task, with the line it
    /// parsed to look kept parsed in `item` (a line is parsed once).
    private func answeredAtOnce(_ item: inout Item) -> Bool {
        let read: (RequestDispatcher) -> RequestLine
        switch item {
        case .parsed(let parsed): read = { _ in parsed }
        case .line(let line) where line.count <= RequestDispatcher.atOnceLineLimit && !Self.isBlank(line): read = { $0.parse(line) }
        case .line, .tooLong: return false
        }
        let admitted = state.withLock { state -> RequestDispatcher? in
            // Counted against the in-flight limit like any request: a client that never reads
            // its answers stops being read, even when all it sends is `status`.
            guard state.unanswered == state.output.answerCount, state.unanswered < limits.maxInFlight, !state.draining, !state.closed, let dispatcher = state.dispatcher else { return nil }
            state.unanswered += 1
            return dispatcher
        }
        guard let dispatcher = admitted else { return false }
        let request = read(dispatcher)
        item = .parsed(request)
        switch dispatcher.answerAtOnce(to: request, connection: id) {
        case .notAtOnce:
            state.withLock { $0.unanswered -= 1 }
            return false
        case .answered(let answer?):
            _ = queue(answer, completesRequest: true) // sent by the caller, on this thread
        case .answered(nil):
            state.withLock { $0.unanswered -= 1 }
        }
        return true
    }

    /// Sends queued output until the socket would block; false when the client is gone.
    private func flush() -> Bool {
        state.withLock { state in sendWaiting(&state) }
    }

    /// `flush` with the lock held (by the I/O thread, or by `writeEvent` on the event hub's
    /// thread): the socket is only written under the lock, so lines never interleave.
    private func sendWaiting(_ state: inout State) -> Bool {
        while true {
            let written = state.output.withUnsentBytes { bytes -> Int in
                guard let bytes else { return 0 }
                return send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if written == 0 { return true }
            if written < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
            state.unanswered -= state.output.markSent(written)
            state.lastActivity = DispatchTime.now().uptimeNanoseconds
        }
    }

    private var outputIsEmpty: Bool { state.withLock { $0.output.isEmpty } }

    enum CloseReason {
        case endOfInput, hungUp, idle, notReading, lineTooLong, stopping

        var text: String {
            switch self {
            case .endOfInput: "the client ended its input and has all its answers"
            case .hungUp: "the client hung up"
            case .idle: "idle past the idle timeout"
            case .notReading: "the client does not read its answers (output limit reached)"
            case .lineTooLong: "a request line was too long"
            case .stopping: "the daemon is stopping"
            }
        }

        var isUnusual: Bool { self == .idle || self == .notReading }
    }

    private func touch() {
        state.withLock { $0.lastActivity = DispatchTime.now().uptimeNanoseconds }
    }
}
