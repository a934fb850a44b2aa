import Foundation
import Planner
import Store
import WireProtocol

/// `hello`, `status`, `watch`.
struct StatusMethods: Sendable {
    let configuration: DaemonConfiguration
    let clock: any WallClock
    let startedAt: Date
    let regions: RegionRegistry
    let counters: DaemonCounters
    let events: EventHub
    /// Location source, fences and the background refresh queue.
    let background: GeofenceMethods.Status

    /// `hello` and `status` are answered from memory (`status` also reads the fences, through
    /// the store's at-once reader), each by one synchronous handler that a connection's own
    /// thread runs at once instead of waiting for a pool that other clients' work may keep busy.
    func register(in table: inout MethodTable) {
        table.register(Endpoints.hello, atOnce: { params, _ in
            guard (ProtocolVersion.oldestSupported...ProtocolVersion.current).contains(params.protocolVersion) else {
                throw DaemonError.unsupportedVersion(client: params.protocolVersion)
            }
            return HelloDocument(server: "usefulmapd", version: ProtocolVersion.softwareVersion,
                                 protocolVersion: ProtocolVersion.current, oldestSupportedVersion: ProtocolVersion.oldestSupported)
        })
        table.register(Endpoints.status, atOnce: { _, _ in try status() })
        table.register(Endpoints.watch) { _, context in
            let subscription = events.subscribe()
            defer { events.unsubscribe(subscription.id) }
            context.logger.debug("watch started")
            var delivered = 0
            for await event in subscription.events {
                events.taken(event, by: subscription.id)
                if Task.isCancelled { break }
                guard case .object(var fields) = event.value else { continue }
                fields["request_id"] = context.requestIDValue
                guard context.sendNotification(WireNotification(method: WireMethod.eventNotification,
                                                                params: .object(fields))) else { break }
                delivered += 1
            }
            try Task.checkCancellation()
            return WatchEndDocument(stopped: true, events: delivered)
        }
    }

    /// Blocks on one read of the store (the fences, through its at-once reader): for a plain thread.
    private func status() throws -> StatusDocument {
        StatusDocument(
            version: ProtocolVersion.softwareVersion, protocolVersion: ProtocolVersion.current,
            databasePath: configuration.databasePath, dataDirectory: configuration.dataDirectory,
            socketPath: configuration.socketPath, uptimeS: WireDocuments.whole(clock.now().timeIntervalSince(startedAt)),
            regions: try regions.documents(onDate: nil, now: clock.now()), counters: counters.document(watchers: events.subscriberCount),
            location: background.document(fences: try background.store.fencesAtOnce()), refreshQueue: background.refresher.document)
    }
}
