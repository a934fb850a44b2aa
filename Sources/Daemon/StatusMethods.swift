import Foundation
import WireProtocol

extension DaemonServices {
    /// `hello`, `status`, `watch`.
    func statusHandlers() -> [WireMethod: RequestDispatcher.Handler] {
        [
            .hello: { context in
                let params = try context.params(Params.Hello.self)
                guard (ProtocolVersion.oldestSupported...ProtocolVersion.current).contains(params.protocolVersion) else {
                    throw DaemonError.unsupportedVersion(client: params.protocolVersion)
                }
                return try JSONValue(encoding: HelloDocument(
                    server: "usefulmapd", version: ProtocolVersion.softwareVersion,
                    protocolVersion: ProtocolVersion.current, oldestSupportedVersion: ProtocolVersion.oldestSupported))
            },
            .status: { [self] _ in
                try JSONValue(encoding: StatusDocument(
                    version: ProtocolVersion.softwareVersion, protocolVersion: ProtocolVersion.current,
                    databasePath: configuration.databasePath, dataDirectory: configuration.dataDirectory,
                    socketPath: configuration.socketPath, uptimeS: clock.now().timeIntervalSince(startedAt),
                    regions: try regions.regions().map(regions.document(of:)), counters: counters.document(watchers: events.subscriberCount),
                    location: locationStatus(), refreshQueue: await refresher.document))
            },
            .watch: { [self] context in
                let subscription = events.subscribe()
                defer { events.unsubscribe(subscription.id) }
                context.logger.debug("watch started")
                var delivered = 0
                for await event in subscription.events {
                    if Task.isCancelled { break }
                    guard case .object(var fields) = event else { continue }
                    fields["request_id"] = try? JSONValue(encoding: context.id)
                    guard context.sendNotification(WireNotification(method: WireMethod.eventNotification,
                                                                    params: .object(fields))) else { break }
                    delivered += 1
                }
                try Task.checkCancellation()
                return .object(["stopped": .bool(true), "events": .number(Double(delivered))])
            },
        ]
    }
}
