import Foundation
import Planner
import Store
import Streets
import WireProtocol

/// Turns one request line into its answer: reads the envelope (one request or a batch), finds
/// each handler, and maps whatever a handler throws to a `WireError` with a stable code.
/// Notifications (requests without `id`) are run and answered by nothing.
public final class RequestDispatcher: Sendable {
    private let table: MethodTable
    let counters: DaemonCounters
    private let logger: DaemonLogger
    private let parser: @Sendable (Data) -> RequestLine

    /// - parameter parser: reads a request line (`WireCodec.requests`); a test counts its calls.
    public init(table: MethodTable, counters: DaemonCounters, logger: DaemonLogger,
                parser: @escaping @Sendable (Data) -> RequestLine = WireCodec.requests(from:)) {
        self.table = table
        self.counters = counters
        self.logger = logger
        self.parser = parser
    }

    /// Reads a request line (without its newline). Each line is read once, by whoever first
    /// needs it (the I/O thread looking for an at-once answer, or the answering task), and the
    /// parsed value is carried on: the dispatcher never reads a line's text again.
    func parse(_ line: Data) -> RequestLine { parser(line) }

    /// Answers one line: the answer line (newline included), or nil when nothing is to be sent
    /// (a notification, or a batch of them). `notify` sends notifications for streaming methods,
    /// `notifyLine` those already written as lines (`watch`'s events).
    /// A batch's requests run one after another and each is answered on its own (not atomic).
    /// Its answers count against `answerLimit` bytes as they come: past it the rest is not run
    /// and the whole batch gets one `answer_too_large` error. Cancelling (the client hung up)
    /// stops a batch between its calls.
    public func respond(to line: Data, connection: Int, answerLimit: Int = .max,
                        notifyLine: @escaping @Sendable (Data) -> Bool = { _ in false },
                        notify: @escaping @Sendable (WireNotification) -> Bool) async -> Data? {
        await respond(to: parse(line), connection: connection, answerLimit: answerLimit, notifyLine: notifyLine, notify: notify)
    }

    /// `respond` to a line already parsed (`parse`).
    func respond(to requestLine: RequestLine, connection: Int, answerLimit: Int = .max,
                 notifyLine: @escaping @Sendable (Data) -> Bool = { _ in false },
                 notify: @escaping @Sendable (WireNotification) -> Bool) async -> Data? {
        switch requestLine {
        case .single(let parsed):
            guard var answer = await answer(parsed, connection: connection, notifyLine: notifyLine, notify: notify) else { return nil }
            answer.append(0x0A)
            return answer
        case .batch(let requests):
            var answers: [Data] = []
            var bytes = 0
            for (index, parsed) in requests.enumerated() {
                if Task.isCancelled {
                    logger.info("batch cancelled", ["connection": String(connection), "calls_run": String(index),
                                                    "calls": String(requests.count)])
                    return WireCodec.errorAnswer(id: nil, error: WireError(.cancelled, "the request was cancelled")) + [0x0A]
                }
                guard let answer = await answer(parsed, connection: connection, notifyLine: notifyLine, notify: notify) else { continue }
                bytes += answer.count + 1
                guard bytes <= answerLimit else {
                    logger.notice("batch answer too large", ["connection": String(connection), "calls_run": String(index + 1),
                                                             "calls": String(requests.count), "limit_bytes": String(answerLimit)])
                    let error = WireError(.answerTooLarge, "the batch's answers passed the connection's output limit "
                        + "(\(answerLimit) bytes, max_output_kb) at call \(index + 1) of \(requests.count); "
                        + "the calls after it were not run: send fewer calls per batch")
                    return WireCodec.errorAnswer(id: nil, error: error) + [0x0A]
                }
                answers.append(answer)
            }
            return WireCodec.batchLine(answers)
        }
    }

    /// The longest line the I/O thread parses to look for an at-once answer (with room for an
    /// id and params a client adds): a longer one is left, unparsed, to the answering task.
    static let atOnceLineLimit = 4096

    /// What `answerAtOnce` did with a line.
    enum AtOnceAnswer: Equatable {
        /// Not one request of a method answered at once: answer it with `respond`.
        case notAtOnce
        /// Answered: the answer line (newline included), or nil for a notification.
        case answered(Data?)
    }

    /// Answers a line on the caller's thread when it is one request of a method registered
    /// with a handler at once (`MethodTable.register(_:atOnce:)`, or
    /// `register(_:atOnceAnswering:)`: `status`, `hello`); else leaves it to `respond`.
    /// A request that is not answered so keeps its parse for `respond`.
    func answerAtOnce(to requestLine: RequestLine, connection: Int) -> AtOnceAnswer {
        guard case .single(.success(let request)) = requestLine, let method = WireMethod(rawValue: request.method),
              let run = table.runAtOnce(method) else { return .notAtOnce }
        counters.countRequest()
        let context = context(of: request, method: method, connection: connection) { _ in false }
        let start = DispatchTime.now().uptimeNanoseconds
        let answer: Data?
        do {
            answer = try run(request, context)
            context.logger.debug("answered", ["ms": elapsed(since: start)])
        } catch {
            answer = failed(request, context, error, since: start)
        }
        return .answered(answer.map { $0 + [0x0A] })
    }

    /// `answerAtOnce` of a line not yet parsed (tests).
    func answerAtOnce(to line: Data, connection: Int) -> AtOnceAnswer {
        answerAtOnce(to: parse(line), connection: connection)
    }

    private func answer(_ parsed: Result<IncomingRequest, RequestFailure>, connection: Int,
                        notifyLine: @escaping @Sendable (Data) -> Bool,
                        notify: @escaping @Sendable (WireNotification) -> Bool) async -> Data? {
        counters.countRequest()
        let request: IncomingRequest
        switch parsed {
        case .success(let value): request = value
        case .failure(let failure):
            logger.info("rejected request", ["connection": String(connection), "code": failure.error.code])
            return WireCodec.errorAnswer(id: failure.id, error: failure.error)
        }
        guard let method = WireMethod(rawValue: request.method), let run = table.run(method) else {
            let error = WireError(.methodNotFound, "unknown method \"\(request.method)\"")
            return request.id.map { WireCodec.errorAnswer(id: $0, error: error) }
        }
        let context = context(of: request, method: method, connection: connection, notifyLine: notifyLine, notify: notify)
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let answer = try await run(request, context)
            context.logger.debug("answered", ["ms": elapsed(since: start)])
            return answer
        } catch {
            return failed(request, context, error, since: start)
        }
    }

    private func context(of request: IncomingRequest, method: WireMethod, connection: Int,
                         notifyLine: @escaping @Sendable (Data) -> Bool = { _ in false },
                         notify: @escaping @Sendable (WireNotification) -> Bool) -> RequestContext {
        let requestLogger = logger.with(["connection": String(connection), "request": request.id?.description ?? "notification",
                                         "method": method.rawValue])
        return RequestContext(id: request.id, method: method, logger: requestLogger, sendNotificationLine: notifyLine,
                              sendNotification: notify)
    }

    /// Logs a handler's error and makes it the answer (nil for a notification).
    private func failed(_ request: IncomingRequest, _ requestContext: RequestContext, _ error: Error, since start: UInt64) -> Data? {
        let requestLogger = requestContext.logger
        let wire = Self.wireError(from: error)
        var context = ["code": wire.code, "ms": elapsed(since: start)]
        if let store = error as? StoreError, store.clientMessage != store.description {
            context["detail"] = store.description // the SQL and the path, for the operator only
        }
        requestLogger.log(wire.code == WireError.Code.internalError.rawValue || context["detail"] != nil ? .error : .info,
                          "request failed", context)
        guard let id = request.id else { return nil }
        // A client too old to read integer codes is told so in the shape it can read.
        if case DaemonError.unsupportedVersion(let client)? = error as? DaemonError, client < ProtocolVersion.oldestSupported {
            return WireCodec.versionOneErrorAnswer(id: id, error: wire)
        }
        return WireCodec.errorAnswer(id: id, error: wire)
    }

    /// Milliseconds since `start`, for the log (made only when the line is logged: the
    /// formatting was 5 % of a `status` answer's cost).
    private func elapsed(since start: UInt64) -> String {
        String(format: "%.1f", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }

    /// The one place where errors of every layer become wire errors.
    public static func wireError(from error: Error) -> WireError {
        switch error {
        case let error as WireError: return error
        case let error as DaemonError: return WireError(code: error.code, message: error.description, data: error.data)
        case let error as PlannerError:
            let code = error.code == "index_out_of_range" ? WireError.Code.invalidParams.rawValue : error.code
            return WireError(code: code, message: personMessage(error))
        case let error as RoutingError: return WireError(code: error.code, message: error.message)
        case let error as StoreError: return WireError(code: error.code, message: error.clientMessage)
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
    case let .nothingToAccept(segment):
        "segment \(segment + 1)'s pending update proposes no ride (none can be caught): nothing to accept; dismiss it instead"
    case let .noLegToPin(segment): "segment \(segment + 1) has no computed leg to pin"
    case let .noDepartureOnLine(line, segment): "no departure of line \(line) found on segment \(segment + 1)"
    default: error.description
    }
}

/// Errors from other layers that carry a stable `code` (StoreError, StreetsError, TransitError…).
public protocol CodedError: Error {
    var code: String { get }
}

extension StreetsError: CodedError {}
extension StoreError: CodedError {}
