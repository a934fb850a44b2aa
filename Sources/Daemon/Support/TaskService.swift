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
