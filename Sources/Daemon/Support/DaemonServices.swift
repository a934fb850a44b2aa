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
    static func inOrder(_ held: HeldComposition, server: DaemonServer, gateway: WebGateway?) -> [any DaemonService] {
        let composition = held.composition
        var services: [any DaemonService] = [
            composition.expiry,
            composition.refresher,
            composition.calendarFile,
            composition.realtime,
        ]
        if let gpsd = composition.gpsd { services.append(gpsd) }
        services.append(server)
        if let gateway { services.append(gateway) }
        // The hub's streams end after their listeners (reminders) have stopped.
        services.append(composition.events)
        // Reminders (and then their notifier) stop first of the parts that last: the answers
        // their notifier gives as it stops start tasks that hold the store, which finish while
        // the server stops.
        if let reminders = composition.reminders { services.append(reminders) }
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
