import Foundation
import Synchronization
import WireProtocol

/// Writes `status` answers from their parts, the same bytes as `WireCodec.resultAnswer` of the
/// whole `StatusDocument` but without encoding it whole each time: `JSONEncoder` was most of the
/// answer's cost. Each part is encoded by `WireCodec.encoder` and its bytes kept while its value
/// does not change (the regions by `RegionsStatusPart`, which also skips building them); the
/// counters and the uptime, which change with every answer or second, and the request's id
/// are written by hand.
/// The envelope and the document's keys are written here, in `WireCodec`'s sorted order;
/// `StatusRegionsPartTests` checks the bytes against the whole document encoded at once.
final class StatusAnswerWriter: Sendable {
    private let location = KeptEncoding<LocationStatusDocument>()
    private let refreshQueue = KeptEncoding<RefreshQueueDocument>()
    private let dataDirectory = KeptEncoding<String>()
    private let databasePath = KeptEncoding<String>()
    private let socketPath = KeptEncoding<String>()
    private let version = KeptEncoding<String>()
    private let protocolVersion = KeptEncoding<Int>()
    /// The `hello` document (`StatusMethods.helloAnswer`).
    let hello = KeptEncoding<HelloDocument>()

    /// The answer to request `id` whose result is `encodedResult` (as `WireCodec.encoder`
    /// encodes it); no newline.
    static func resultAnswer(id: RequestID, encodedResult: Data) throws -> Data {
        var line = Data(capacity: 48 + encodedResult.count)
        line.append(contentsOf: #"{"id":"#.utf8)
        try write(id, into: &line)
        line.append(contentsOf: #","jsonrpc":"2.0","result":"#.utf8)
        line.append(encodedResult)
        line.append(0x7D) // }
        return line
    }

    /// A request's id as `JSONEncoder` writes it.
    private static func write(_ id: RequestID, into line: inout Data) throws {
        switch id {
        case .number(let number): line.append(contentsOf: String(number).utf8) // as JSONEncoder writes an integer
        case .string: line.append(try WireCodec.encoder.encode(id))
        }
    }

    /// The answer to request `id` with `document`, its regions being `regions` (already encoded:
    /// `document.regions` is not read); no newline.
    func answer(id: RequestID, _ document: StatusDocument, regions: Data) throws -> Data {
        var line = Data(capacity: 1024 + regions.count)
        func add(_ literal: StaticString) {
            line.append(literal.utf8Start, count: literal.utf8CodeUnitCount)
        }
        add(#"{"id":"#)
        try Self.write(id, into: &line)
        add(#","jsonrpc":"2.0","result":{"counters":"#)
        Self.write(document.counters, into: &line)
        add(#","data_directory":"#)
        line.append(try dataDirectory.encoded(document.dataDirectory))
        add(#","database_path":"#)
        line.append(try databasePath.encoded(document.databasePath))
        if let location = document.location { // absent when nil, as the synthesized encoding leaves it out
            add(#","location":"#)
            line.append(try self.location.encoded(location))
        }
        add(#","protocol_version":"#)
        line.append(try protocolVersion.encoded(document.protocolVersion))
        if let refreshQueue = document.refreshQueue {
            add(#","refresh_queue":"#)
            line.append(try self.refreshQueue.encoded(refreshQueue))
        }
        add(#","regions":"#)
        line.append(regions)
        add(#","socket_path":"#)
        line.append(try socketPath.encoded(document.socketPath))
        add(#","uptime_s":"#)
        try Self.write(seconds: document.uptimeS, into: &line)
        add(#","version":"#)
        line.append(try version.encoded(document.version))
        add("}}")
        return line
    }

    /// `counters` as `WireCodec` encodes it (sorted keys, `null` for nil), written by hand: they
    /// change with every answer, and encoding them was then most of what `JSONEncoder` still did.
    /// Every field is an integer, so the bytes are only keys and decimal numbers.
    private static func write(_ counters: CountersDocument, into line: inout Data) {
        func add(_ literal: StaticString) {
            line.append(literal.utf8Start, count: literal.utf8CodeUnitCount)
        }
        func number(_ value: Int?) {
            line.append(contentsOf: (value.map(String.init) ?? "null").utf8)
        }
        let queries = counters.routingQueries
        add(#"{"connections":"#); number(counters.connections)
        add(#","history_not_recorded":"#); number(counters.historyNotRecorded)
        add(#","log_lines_dropped":"#); number(counters.logLinesDropped)
        add(#","no_route_known_at_import":"#); number(counters.noRouteKnownAtImport)
        add(#","no_route_retries":"#); number(counters.noRouteRetries)
        add(#","plans_recomputed":"#); number(counters.plansRecomputed)
        add(#","realtime_overlays_built":"#); number(counters.realtimeOverlaysBuilt)
        add(#","requests":"#); number(counters.requests)
        add(#","routing_queries":{"bike":"#); number(queries.bike)
        add(#","car":"#); number(queries.car)
        add(#","total":"#); number(queries.total)
        add(#","transit":"#); number(queries.transit)
        add(#","walk":"#); number(queries.walk)
        add(#"},"watchers":"#); number(counters.watchers)
        add("}")
    }

    /// The uptime, whole seconds (`WireDocuments.whole`), as `JSONEncoder` writes a whole
    /// `Double`: by hand, because it changes every second, so a status bar asking once a second
    /// would otherwise encode it at every answer.
    private static func write(seconds: Double, into line: inout Data) throws {
        if seconds == seconds.rounded(), abs(seconds) < 1e15 {
            line.append(contentsOf: String(Int64(seconds)).utf8)
        } else {
            line.append(try WireCodec.encoder.encode(seconds))
        }
    }
}
