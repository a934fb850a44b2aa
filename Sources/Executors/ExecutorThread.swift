import Foundation
import Synchronization

// The one thread primitive of Useful Map (issue 45): named OS threads that take work from a
// queue, as a Swift executor. This file is the only one that may wait on a semaphore or touch
// pthreads (ArchitectureTests); everything else waits by `await`, or on a plain thread through
// `Handoff`, `Gate` or `Mailbox`, and starts a thread of its own with `startThread`. The one
// lock type is the standard library's `Mutex` (Synchronization).

/// A named OS thread with a queue of its own, and a Swift `SerialExecutor`: an actor whose
/// `unownedExecutor` is this thread runs every call on it, one at a time, and a task that
/// awaits it is suspended meanwhile, never blocked. It also runs the owner's own `Work`,
/// taken up to `batchLimit` at a time (the store's writer takes every write waiting, to commit
/// them together), with a value of the owner's that belongs to the thread (`Local`, such as a
/// database connection, found again with `local(as:)`).
///
/// ```swift
/// let thread = ExecutorThread<Job, Connection>(name: "store-writer", local: connection) { jobs, connection in
///     for job in jobs { job.run(on: connection) }
/// }
/// thread.submit(job)
/// ```
///
/// `stop()` lets the thread finish what was queued before it, then end (`onExit` runs on it
/// last); `join()` waits for that.
public final class ExecutorThread<Work: Sendable, Local: AnyObject>: SerialExecutor, Sendable {
    private let queue: WorkQueue<Work>
    private let thread: OSThread<Work, Local>

    /// - parameter nice: the nice value the thread sets itself to as it starts (nil: the starting thread's).
    /// - parameter perform: runs on the thread, with work taken from the queue in order.
    /// - parameter onExit: runs on the thread as it ends, after the last work.
    public init(name: String, nice: Int32? = nil, local: Local, batchLimit: Int = 1,
                perform: @escaping @Sendable ([Work], Local) -> Void, onExit: @escaping @Sendable (Local) -> Void = { _ in }) {
        let queue = WorkQueue<Work>()
        self.queue = queue
        thread = OSThread(name: name, nice: nice, local: local, queue: queue, batchLimit: batchLimit,
                          perform: perform, onExit: onExit)
        thread.start(jobsOn: .serial(UnownedSerialExecutor(ordinary: self)))
    }

    /// Queues `work` behind what is queued.
    public func submit(_ work: Work) { queue.push(.work(work)) }

    /// Work queued and not taken yet.
    public var queuedCount: Int { queue.count }

    public func enqueue(_ job: consuming ExecutorJob) { queue.push(.job(UnownedJob(job))) }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    /// Ends the thread after the work queued before this.
    public func stop() { queue.push(.stop) }

    /// Waits until the thread has ended (after `stop`); at once when the caller is the thread
    /// itself (it ends once its work returns).
    public func join() { if !isCurrent { thread.join() } }

    /// Whether the caller is this thread.
    public var isCurrent: Bool { OSThread<Work, Local>.currentLocal === thread.local }

    /// The thread's local value when the caller is this thread, else nil.
    public var currentLocal: Local? { isCurrent ? thread.local : nil }
}

/// A few named OS threads taking work from one shared queue (the store's readers): any free
/// thread takes the next work. A `TaskExecutor`: a task started with it as its preference runs
/// on these threads (not serially: that is `ExecutorThread`'s promise).
public final class ExecutorPool<Work: Sendable, Local: AnyObject>: TaskExecutor, Sendable {
    private let queue: WorkQueue<Work>
    private let threads: [OSThread<Work, Local>]

    /// One thread per `locals` element, named `name-1`, `name-2` …; `perform` gets one work at a time.
    public init(name: String, nice: Int32? = nil, locals: [Local],
                perform: @escaping @Sendable (Work, Local) -> Void, onExit: @escaping @Sendable (Local) -> Void = { _ in }) {
        let queue = WorkQueue<Work>()
        self.queue = queue
        threads = locals.enumerated().map { index, local in
            OSThread(name: "\(name)-\(index + 1)", nice: nice, local: local, queue: queue, batchLimit: 1,
                     perform: { work, local in for one in work { perform(one, local) } }, onExit: onExit)
        }
        for thread in threads { thread.start(jobsOn: .task(UnownedTaskExecutor(ordinary: self))) }
    }

    public func submit(_ work: Work) { queue.push(.work(work)) }

    public var queuedCount: Int { queue.count }

    public func enqueue(_ job: consuming ExecutorJob) { queue.push(.job(UnownedJob(job))) }

    /// Ends every thread after the work queued before this.
    public func stop() { for _ in threads { queue.push(.stop) } }

    /// Waits until every thread but the caller's own has ended (after `stop`).
    public func join() {
        for thread in threads where OSThread<Work, Local>.currentLocal !== thread.local { thread.join() }
    }

    /// The local value of the pool's thread running the caller, if it is one.
    public var currentLocal: Local? {
        threads.first { OSThread<Work, Local>.currentLocal === $0.local }?.local
    }
}

/// The value of the executor thread running the caller (its `Local`), if any: how work finds
/// the connection of the thread it runs on.
public func currentExecutorLocal<Local: AnyObject>(as type: Local.Type) -> Local? {
    threadLocalObject() as? Local
}

/// One answer handed from one thread to another that waits for it: how a plain thread (a tool,
/// a test) waits for work it gave an executor thread. Never from a task: a task awaits.
public final class Handoff<Value>: @unchecked Sendable { // `value` is written before `signal`, read after `wait`
    private var value: Value?
    private let done = DispatchSemaphore(value: 0)

    public init() {}

    public func hand(_ value: Value) {
        self.value = value
        done.signal()
    }

    /// Waits for `hand`, then gives its value.
    public func wait() -> Value {
        done.wait()
        guard let value else { preconditionFailure("a handoff signalled without a value") }
        return value
    }
}

// MARK: - Waits of a plain thread

/// A gate that opens once and stays open: any number of plain threads wait for it, with or
/// without a deadline (an import branch waiting for another's result, a loop's pause that its
/// `stop` cuts short, a thread waiting for a task to end). Never waited on from a task: a task awaits.
public final class Gate: Sendable {
    private let opened = Mutex(false)
    /// Signalled once when opened; each waiter that gets the signal passes it on.
    private let signal = DispatchSemaphore(value: 0)

    public init() {}

    /// Opens the gate; only the first call counts.
    public func open() {
        let first = opened.withLock { opened in
            defer { opened = true }
            return !opened
        }
        if first { signal.signal() }
    }

    public var isOpen: Bool { opened.withLock { $0 } }

    /// Waits until the gate is open.
    public func wait() {
        signal.wait()
        signal.signal()
    }

    /// Waits until the gate is open or `seconds` have passed; whether it is open.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        guard signal.wait(timeout: .now() + max(0, seconds)) == .success else { return isOpen }
        signal.signal()
        return true
    }
}

/// Values a plain thread waits for, oldest first (its inbox): any thread puts, without waiting;
/// the owner takes, waiting with or without a deadline (a parked server thread's next
/// connection, a bus thread's next notice, the answers of a batch). Never taken from a task:
/// a task awaits.
public final class Mailbox<Value: Sendable>: Sendable {
    private let values = Mutex<(items: [Value], head: Int)>(([], 0))
    /// One signal per value put.
    private let arrived = DispatchSemaphore(value: 0)

    public init() {}

    public func put(_ value: Value) {
        values.withLock { $0.items.append(value) }
        arrived.signal()
    }

    /// Values put and not taken yet.
    public var count: Int { values.withLock { $0.items.count - $0.head } }

    /// Waits for the next value and takes it.
    public func take() -> Value {
        arrived.wait()
        return removeFirst()
    }

    /// The next value, waiting for it up to `seconds`; nil when none came in time.
    public func take(waitingUpTo seconds: Double) -> Value? {
        guard arrived.wait(timeout: .now() + max(0, seconds)) == .success else { return nil }
        return removeFirst()
    }

    /// Every value there now, oldest first, without waiting.
    public func takeAll() -> [Value] {
        var taken: [Value] = []
        while arrived.wait(timeout: .now()) == .success { taken.append(removeFirst()) }
        return taken
    }

    /// Waits up to `seconds` for a first value, then takes it and every value there with it.
    public func takeAll(waitingUpTo seconds: Double) -> [Value] {
        guard let first = take(waitingUpTo: seconds) else { return [] }
        return [first] + takeAll()
    }

    /// Each signal taken stands for one value put before it.
    private func removeFirst() -> Value {
        values.withLock { values in
            let value = values.items[values.head]
            values.head += 1
            if values.head == values.items.count {
                values.items.removeAll(keepingCapacity: true)
                values.head = 0
            } else if values.head > 1024, values.head * 2 > values.items.count {
                values.items.removeFirst(values.head)
                values.head = 0
            }
            return value
        }
    }
}

/// Starts a detached OS thread named `name` running `body` once (a loop of its own: a
/// connection's I/O, the signal pipe's reader, a bus). It inherits the caller's nice value.
/// False when the process may make no more threads (then `body` is dropped unrun).
@discardableResult
public func startThread(named name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
    final class Start: Sendable {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let start = Unmanaged.passRetained(Start(name: name, body: body))
    var thread = pthread_t()
    let created = pthread_create(&thread, &attributes, { context in
        let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
        nameCurrentThread(start.name)
        start.body()
        return nil
    }, start.toOpaque())
    guard created == 0 else {
        start.release()
        return false
    }
    return true
}

// MARK: - Inside

/// What a queue holds: the owner's work, a job of Swift's, or the end of one thread.
enum QueueEntry<Work: Sendable>: Sendable {
    case work(Work)
    case job(UnownedJob)
    case stop
}

/// Entries waiting for the threads that take from this queue, oldest first. A stop is taken
/// after the entries queued before it, so stopping never drops queued work.
final class WorkQueue<Work: Sendable>: Sendable {
    private let entries = Mutex<[QueueEntry<Work>]>([])
    private let waiting = DispatchSemaphore(value: 0)

    func push(_ entry: QueueEntry<Work>) {
        entries.withLock { $0.append(entry) }
        waiting.signal()
    }

    var count: Int { entries.withLock { $0.count } }

    /// Waits for the next entry; takes it, and the owner's work queued right behind it (up to
    /// `limit` in all) when it is the owner's work.
    func next(upTo limit: Int) -> [QueueEntry<Work>] {
        waiting.wait()
        var taken = [entries.withLock { $0.removeFirst() }]
        guard case .work = taken[0] else { return taken }
        // Each entry signalled once: take more only while they are already there.
        while taken.count < limit, waiting.wait(timeout: .now()) == .success {
            let entry = entries.withLock { $0.removeFirst() }
            taken.append(entry)
            guard case .work = entry else { break }
        }
        return taken
    }
}

/// One OS thread taking from a queue until a stop.
final class OSThread<Work: Sendable, Local: AnyObject>: Sendable {
    /// Used only on the thread (`perform`, `onExit`), and compared by identity elsewhere: the
    /// one unchecked part of the executors, said of this one value rather than of a whole class.
    nonisolated(unsafe) let local: Local
    private let name: String
    private let nice: Int32?
    private let queue: WorkQueue<Work>
    private let batchLimit: Int
    private let perform: @Sendable ([Work], Local) -> Void
    private let onExit: @Sendable (Local) -> Void
    private let exited = Gate()

    init(name: String, nice: Int32?, local: Local, queue: WorkQueue<Work>, batchLimit: Int,
         perform: @escaping @Sendable ([Work], Local) -> Void, onExit: @escaping @Sendable (Local) -> Void) {
        self.name = name
        self.nice = nice
        self.local = local
        self.queue = queue
        self.batchLimit = max(1, batchLimit)
        self.perform = perform
        self.onExit = onExit
    }

    /// The executor Swift's jobs taken by this thread run on.
    enum JobExecutor {
        case serial(UnownedSerialExecutor)
        case task(UnownedTaskExecutor)
    }

    /// Starts the thread. The executor is unowned: its owner stops and joins the thread before it goes.
    func start(jobsOn executor: JobExecutor) {
        let thread = Thread { [self] in run(jobsOn: executor) }
        thread.name = name
        thread.start()
    }

    func join() { exited.wait() }

    private func run(jobsOn executor: JobExecutor) {
        nameCurrentThread(name)
        // Linux keeps nice per thread: `who` 0 is this thread alone. Raising it needs no privilege.
        if let nice, getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) < nice {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
        }
        pthread_setspecific(threadLocalKey, Unmanaged.passUnretained(local).toOpaque()) // `self` holds it meanwhile
        running: while true {
            // The owner's work goes as one batch; the work (which may hold its owner) is let go
            // of before the thread waits again.
            var work: [Work] = []
            for entry in queue.next(upTo: batchLimit) {
                switch entry {
                case .work(let one):
                    work.append(one)
                case .job(let job):
                    if !work.isEmpty { perform(work, local) }
                    work = []
                    switch executor {
                    case .serial(let serial): job.runSynchronously(on: serial)
                    case .task(let task): job.runSynchronously(on: task)
                    }
                case .stop:
                    if !work.isEmpty { perform(work, local) }
                    break running
                }
            }
            if !work.isEmpty { perform(work, local) }
        }
        onExit(local)
        pthread_setspecific(threadLocalKey, nil)
        exited.open()
    }

    static var currentLocal: AnyObject? { threadLocalObject() }
}

/// Thread-specific data: the `Local` of the executor thread a thread is.
private let threadLocalKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

private func threadLocalObject() -> AnyObject? {
    pthread_getspecific(threadLocalKey).map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() }
}

/// Names the calling thread for the kernel (`top -H`, `/proc/…/task/…/comm`), cut to its 15
/// bytes: Foundation keeps `Thread.name` to itself on Linux, and Glibc's `pthread_setname_np`
/// is not visible to Swift.
public func nameCurrentThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = Array(name.utf8.prefix(15)).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}
