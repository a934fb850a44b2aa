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
            // Parts whose loops predate the protocol keep their own start and stop (issue 45: not yet converted).
            StartStopService("realtime poller", start: { await composition.realtime.start() },
                             stop: { await composition.realtime.stop() }),
        ]
        if let gpsd = composition.gpsd {
            services.append(StartStopService("gpsd", start: { gpsd.start() }, stop: { gpsd.stop() }))
        }
        services.append(StartStopService("socket server", start: { server.start() }, stop: { await server.stop(grace: grace) }))
        if let gateway { services.append(gateway) }
        // The hub's streams end after their listeners (reminders) have stopped.
        services.append(composition.events)
        // Reminders stop first of the parts that last: the answers their notifier gives as it
        // stops start tasks that hold the store, which finish while the server stops.
        if let reminders = composition.reminders {
            let notifier = composition.notifier
            services.append(StartStopService("reminders", start: { await reminders.start() }, stop: {
                await reminders.stop()
                // Its bus thread ends (and closes the bus) while a thread of the blocking pool waits.
                if let notifier { _ = try? await CPUWorkPool.blocking.run { notifier.stop() } }
            }))
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
