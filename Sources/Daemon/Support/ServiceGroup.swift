/// Runs the daemon's services for its lifetime: starts them in the order given (dependency
/// order: a service comes after what it uses), each in a task of its own, and on `shutdown`
/// cancels them in reverse, waiting for each to end before cancelling the one before it, so
/// nothing is stopped while a later service may still use it. A service that ends or throws
/// on its own is logged; the others keep running.
///
/// ```swift
/// let group = ServiceGroup([expiry, realtime, server], logger: logger)
/// await group.run(until: { await signals.next() })
/// ```
struct ServiceGroup: Sendable {
    let services: [any DaemonService]
    let logger: DaemonLogger

    init(_ services: [any DaemonService], logger: DaemonLogger) {
        self.services = services
        self.logger = logger
    }

    /// Starts every service, waits for `shutdown` to return, then stops them in reverse order.
    /// Returns once the last has ended.
    func run(until shutdown: @Sendable () async -> Void) async {
        var running: [Task<Void, Never>] = []
        for service in services {
            await service.start()
            running.append(Task { [logger] in
                do {
                    try await service.run()
                } catch is CancellationError {
                } catch {
                    logger.error("a background part failed", ["service": service.name, "error": "\(error)"])
                }
            })
        }
        await shutdown()
        for (service, task) in zip(services, running).reversed() {
            task.cancel()
            await task.value
            logger.debug("stopped", ["service": service.name])
        }
    }
}
