/// A `DaemonService` made of a part's own start and stop (the parts whose loops predate the
/// protocol): `start` starts it, `run` waits until cancelled, then stops it and returns once it
/// has stopped, so that the group's next cancellation comes after.
struct StartStopService: DaemonService {
    let name: String
    private let starting: @Sendable () async -> Void
    private let stopping: @Sendable () async -> Void

    init(_ name: String, start: @escaping @Sendable () async -> Void = {}, stop: @escaping @Sendable () async -> Void) {
        self.name = name
        starting = start
        stopping = stop
    }

    func start() async { await starting() }

    func run() async { await untilCancelled(thenStop: stopping) }
}

/// A `DaemonService` that is one piece of work (recovering interrupted plans, the update
/// schedule's loop): `run` is the work, cancelled with the group.
struct TaskService: DaemonService {
    let name: String
    let work: @Sendable () async -> Void

    init(_ name: String, _ work: @escaping @Sendable () async -> Void) {
        self.name = name
        self.work = work
    }

    func run() async { await work() }
}
