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
    /// The regions part, kept encoded between its changes.
    let regionsPart: RegionsStatusPart
    /// Writes the answers, each part's bytes kept while it does not change.
    let writer = StatusAnswerWriter()

    init(configuration: DaemonConfiguration, clock: any WallClock, startedAt: Date, regions: RegionRegistry,
         counters: DaemonCounters, events: EventHub, background: GeofenceMethods.Status) {
        self.configuration = configuration
        self.clock = clock
        self.startedAt = startedAt
        self.regions = regions
        self.counters = counters
        self.events = events
        self.background = background
        regionsPart = RegionsStatusPart(regions: regions)
    }

    /// `hello` and `status` are answered from memory (`status` also reads the fences, through
    /// the store's at-once reader, and writes its answer from parts kept encoded), each by one
    /// synchronous handler that a connection's own thread runs at once instead of waiting for a
    /// pool that other clients' work may keep busy.
    func register(in table: inout MethodTable) {
        table.register(Endpoints.hello, atOnceAnswering: { params, id in
            guard (ProtocolVersion.oldestSupported...ProtocolVersion.current).contains(params.protocolVersion) else {
                throw DaemonError.unsupportedVersion(client: params.protocolVersion)
            }
            return try helloAnswer(id: id)
        })
        table.register(Endpoints.status, atOnceAnswering: { _, id in try statusAnswer(id: id, now: clock.now()) })
        // The events go from the hub's thread straight to the connection, each encoded once for
        // every watcher (`EventLine`); this task only waits for the end.
        table.register(Endpoints.watch) { _, context in
            let requestID = WireCodec.text(of: context.requestIDValue)
            let watch = events.watch { event in context.sendNotificationLine(event.notificationLine(requestID: requestID)) }
            context.logger.debug("watch started")
            for await _ in watch.ended {} // the client went, the daemon stops, or the request was cancelled
            let delivered = await events.endWatch(watch)
            try Task.checkCancellation()
            return WatchEndDocument(stopped: true, events: delivered)
        }
    }

    /// What `hello` answers.
    static let helloDocument = HelloDocument(server: "usefulmapd", version: ProtocolVersion.softwareVersion,
                                             protocolVersion: ProtocolVersion.current, oldestSupportedVersion: ProtocolVersion.oldestSupported)

    /// The `hello` answer to request `id`, the same bytes as `WireCodec.resultAnswer` of
    /// `helloDocument`, the document encoded once: every `umctl` process sends a hello, and
    /// `JSONEncoder` was a tenth of what a new connection's `hello` and `status` cost the daemon.
    func helloAnswer(id: RequestID) throws -> Data {
        try StatusAnswerWriter.resultAnswer(id: id, encodedResult: try writer.hello.encoded(Self.helloDocument))
    }

    /// The `status` answer to request `id`: the document of `status(now:regions:)`, written by
    /// `writer` from its parts, the regions kept encoded between their changes (`regionsPart`).
    /// Blocks on one read of the store (the fences, through its at-once reader): for a plain thread.
    func statusAnswer(id: RequestID, now: Date) throws -> Data {
        try writer.answer(id: id, try status(now: now, regions: []), regions: try regionsPart.encoded(now: now))
    }

    /// The status document with `regions`; blocks on one read of the store (the fences).
    func status(now: Date, regions: [RegionDocument]) throws -> StatusDocument {
        StatusDocument(
            version: ProtocolVersion.softwareVersion, protocolVersion: ProtocolVersion.current,
            databasePath: configuration.databasePath, dataDirectory: configuration.dataDirectory,
            socketPath: configuration.socketPath, uptimeS: WireDocuments.whole(now.timeIntervalSince(startedAt)),
            regions: regions, counters: counters.document(watchers: events.subscriberCount),
            location: background.document(states: try background.fences.statesAtOnce()), refreshQueue: WireDocuments.refreshQueue(background.refresher.state))
    }
}

extension WireDocuments {
    /// The background refresh queue as `status` shows it.
    static func refreshQueue(_ state: BackgroundRefresher.QueueState) -> RefreshQueueDocument {
        RefreshQueueDocument(running: state.running, queued: state.queued, refreshed: state.refreshed, retried: state.retried,
                             leftAlone: state.leftAlone, failed: state.failed)
    }
}
