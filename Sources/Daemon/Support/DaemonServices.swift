import Notifications

/// The daemon's background parts as `DaemonService`s, in dependency order: a part comes after
/// what it uses, so the `ServiceGroup` cancels it first. A stop first cancels the one-off and
/// scheduled work (region updates, recovery), stops reminders and their notifier, ends the
/// event hub's streams (so `watch` clients and the web app's event streams get their last
/// answers), then the web gateway and the socket server stop taking requests and let the
/// running ones finish within the grace, and only then the parts those requests may use stop
/// (gpsd, the realtime poller, the calendar file, the background refresher, the feed expiry watcher).
enum DaemonServices {
    /// - parameter held: the composition; the one-off tasks hold it weakly, so that one still
    ///   being torn down never keeps the store alive past the group.
    static func inOrder(_ held: HeldComposition, server: DaemonServer, gateway: WebGateway?,
                        grace: Double) -> [any DaemonService] {
        let composition = held.composition
        var services: [any DaemonService] = [
            composition.expiry,
            composition.refresher,
            composition.calendarFile,
            composition.realtime,
        ]
        if let gpsd = composition.gpsd { services.append(gpsd) }
        services.append(SocketServerService(server: server, grace: grace))
        if let gateway { services.append(gateway) }
        // The hub's streams end after their listeners (reminders) have stopped.
        services.append(composition.events)
        // Reminders stop first of the parts that last: the answers their notifier gives as it
        // stops start tasks that hold the store, which finish while the server stops.
        if let reminders = composition.reminders {
            services.append(RemindersService(reminders: reminders, notifier: composition.notifier))
        }
        // Plans whose recompute a crash interrupted get their legs without waiting for a client.
        // So do plans a refresh after a new timetable had not reached yet.
        services.append(TaskService("recovery") { [weak held] in
            await held?.composition.recomputeInterruptedPlans()
            await held?.composition.refresher.resume()
        })
        // Every region's sources are checked on the schedule (`update_interval`).
        services.append(TaskService("region updates") { [weak held] in await held?.composition.updates?() })
        return services
    }
}

// MARK: - Parts whose loops predate the protocol: their own start, and their stop once cancelled

extension RealtimePoller: DaemonService {
    nonisolated var name: String { "realtime poller" }

    /// Polls (`start`: a loop per region) until cancelled, then ends every loop.
    func run() async { await untilCancelled(thenStop: { await self.stop() }) }
}

extension GpsdLocationSource: DaemonService {
    var name: String { "gpsd" }

    /// Reads gpsd on its own thread (`start`) until cancelled, then ends it.
    func run() async { await untilCancelled(thenStop: { self.stop() }) }
}

/// The socket server: it accepts from its start; cancelled, it stops accepting and lets the
/// running requests finish within `grace` (its sleep outside the cancelled task).
private struct SocketServerService: DaemonService {
    let server: DaemonServer
    let grace: Double
    var name: String { "socket server" }

    func start() async { server.start() }

    func run() async { await untilCancelled(thenStop: { [server, grace] in await server.stop(grace: grace) }) }
}

/// Reminders and their desktop notifier, stopped in that order: the answers the notifier gives
/// as it stops start tasks that hold the store, which finish while the server stops.
private struct RemindersService: DaemonService {
    let reminders: ReminderService
    let notifier: DesktopNotifier?
    var name: String { "reminders" }

    func start() async { await reminders.start() }

    func run() async {
        await untilCancelled(thenStop: { [reminders, notifier] in
            await reminders.stop()
            // Its bus thread ends (and closes the bus) while a thread of the blocking pool waits.
            if let notifier { _ = try? await CPUWorkPool.blocking.run { notifier.stop() } }
        })
    }
}
