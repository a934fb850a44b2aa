import Foundation
import Planner
import WireProtocol

/// Turns one request line into one response: reads the envelope, finds the handler, and maps
/// whatever the handler throws to a `WireError` with a stable code.
public final class RequestDispatcher: Sendable {
    public typealias Handler = @Sendable (RequestContext) async throws -> JSONValue

    private let handlers: [WireMethod: Handler]
    let counters: DaemonCounters
    private let logger: DaemonLogger

    public init(handlers: [WireMethod: Handler], counters: DaemonCounters, logger: DaemonLogger) {
        self.handlers = handlers
        self.counters = counters
        self.logger = logger
    }

    /// Answers one line. `notify` sends notifications for streaming methods.
    public func respond(to line: Data, connection: Int,
                        notify: @escaping @Sendable (WireNotification) -> Bool) async -> WireResponse {
        counters.countRequest()
        let request: WireRequest
        switch WireCodec.request(from: line) {
        case .success(let value): request = value
        case .failure(let failure):
            logger.info("rejected request", ["connection": String(connection), "code": failure.error.code])
            return WireResponse(id: failure.id, error: failure.error)
        }
        guard let method = WireMethod(rawValue: request.method), let handler = handlers[method] else {
            return WireResponse(id: request.id, error: WireError(.methodNotFound, "unknown method \"\(request.method)\""))
        }
        let requestLogger = logger.with(["connection": String(connection), "request": request.id.description,
                                         "method": method.rawValue])
        let context = RequestContext(id: request.id, method: method, params: request.params,
                                     logger: requestLogger, sendNotification: notify)
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let result = try await handler(context)
            requestLogger.debug("answered", ["ms": elapsed(since: start)])
            return WireResponse(id: request.id, result: result)
        } catch {
            let wire = Self.wireError(from: error)
            requestLogger.log(wire.code == WireError.Code.internalError.rawValue ? .error : .info,
                              "request failed", ["code": wire.code, "ms": elapsed(since: start)])
            return WireResponse(id: request.id, error: wire)
        }
    }

    private func elapsed(since start: UInt64) -> String {
        String(format: "%.1f", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }

    /// The one place where errors of every layer become wire errors.
    public static func wireError(from error: Error) -> WireError {
        switch error {
        case let error as WireError: return error
        case let error as DaemonError: return WireError(code: error.code, message: error.description)
        case let error as PlannerError:
            let code = error.code == "index_out_of_range" ? WireError.Code.invalidParams.rawValue : error.code
            return WireError(code: code, message: personMessage(error))
        case let error as RoutingError: return WireError(code: error.code, message: error.message)
        case is CancellationError: return WireError(.cancelled, "the request was cancelled")
        default:
            if let coded = error as? any CodedError {
                return WireError(code: coded.code, message: String(describing: error))
            }
            return WireError(.internalError, String(describing: error))
        }
    }
}

/// The planner counts from 0; people and the wire count nodes and segments from 1.
func personMessage(_ error: PlannerError) -> String {
    switch error {
    case let .nodeIndexOutOfRange(index, count): "node \(index + 1) does not exist: the plan has nodes 1 to \(count)"
    case let .segmentIndexOutOfRange(index, count): "segment \(index + 1) does not exist: the plan has segments 1 to \(count)"
    case let .cannotRemoveEndpoint(index): "node \(index + 1) is the origin or the destination and cannot be removed"
    case let .noPendingUpdate(segment): "segment \(segment + 1) has no pending update"
    case let .noLegToPin(segment): "segment \(segment + 1) has no computed leg to pin"
    default: error.description
    }
}

/// Errors from other layers that carry a stable `code` (StoreError, StreetsError, TransitError…).
public protocol CodedError: Error {
    var code: String { get }
}
