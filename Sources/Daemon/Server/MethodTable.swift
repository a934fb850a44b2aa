import Foundation
import WireProtocol

/// Every method's handler, each registered through its `Endpoint`: the handler takes the
/// endpoint's params type and returns its result type. This is the one place where a request's
/// params are decoded (once, from the request's text) and its result encoded (once, with the
/// answer's envelope), except `status`, which writes its own answer's bytes from parts kept
/// encoded (`register(_:atOnceAnswering:)`, `StatusAnswerWriter`).
///
/// ```swift
/// var table = MethodTable()
/// table.register(Endpoints.placeRemove) { params, _ in
///     try await places.write(Places.remove(named: params.name))
///     return RemovedDocument(removed: params.name)
/// }
/// ```
///
/// A method whose answer is cheap and comes from memory (`status`, `hello`) has one
/// synchronous handler instead (`register(_:atOnce:)`, or `register(_:atOnceAnswering:)` for
/// `status`), which a connection's I/O thread runs
/// itself (`RequestDispatcher.answerAtOnce`), so that it never waits for a thread of the
/// cooperative pool that other clients' work keeps busy.
public struct MethodTable: Sendable {
    /// Runs one request; returns its encoded answer, or nil for a notification.
    typealias Run = @Sendable (IncomingRequest, RequestContext) async throws -> Data?
    /// The same, synchronously, on the caller's thread.
    typealias RunAtOnce = @Sendable (IncomingRequest, RequestContext) throws -> Data?

    private var runs: [WireMethod: Run] = [:]
    private var runsAtOnce: [WireMethod: RunAtOnce] = [:]

    /// Methods registered a second time, in order: the second handler is refused (the first
    /// stays), and the daemon refuses to start with any (`DaemonComposition`), so two groups can
    /// never silently answer the same method.
    public private(set) var duplicates: [WireMethod] = []

    public init() {}

    /// The methods that have a handler.
    public var methods: Set<WireMethod> { Set(runs.keys) }

    /// Whether `method` may be registered now; records it in `duplicates` when it already is.
    private mutating func admits(_ method: WireMethod) -> Bool {
        guard runs[method] == nil else {
            duplicates.append(method)
            return false
        }
        return true
    }

    /// Registers the handler of `endpoint`; a second registration of a method is refused
    /// (recorded in `duplicates`).
    public mutating func register<P, R>(_ endpoint: Endpoint<P, R>,
                                        _ handler: @escaping @Sendable (P, RequestContext) async throws -> R) {
        guard admits(endpoint.method) else { return }
        runs[endpoint.method] = { request, context in
            let params = try request.params(P.self)
            let result = try await handler(params, context)
            guard let id = request.id else { return nil }
            return try Self.withinBudget(try WireCodec.resultAnswer(id: id, result: result))
        }
    }

    /// `answer`, unless it is longer than a client reads (`WireLimits.maximumAnswerBytes`).
    /// - throws: `answer_too_large` naming both sizes.
    static func withinBudget(_ answer: Data) throws -> Data {
        guard answer.count <= WireLimits.maximumAnswerBytes else {
            throw WireError(.answerTooLarge, "the answer is \(answer.count >> 20) MiB, above the \(WireLimits.maximumAnswerBytes >> 20) MiB "
                            + "an answer may be")
        }
        return answer
    }

    /// Registers the one handler of a method answered from memory: synchronous, for a plain
    /// thread, as it waits for nothing but, at most, a read through the store's at-once reader
    /// (`store.readAtOnce(Geofences.all())`). A connection's I/O thread runs it itself (`runAtOnce`); a request
    /// it cannot answer at once (one behind an unanswered request, or in a batch) runs it on
    /// `atOncePool`, so that it never blocks a thread of the cooperative pool.
    public mutating func register<P, R>(_ endpoint: Endpoint<P, R>, atOnce handler: @escaping @Sendable (P, RequestContext) throws -> R) {
        registerAtOnce(endpoint.method) { request, context in
            let params = try request.params(P.self)
            let result = try handler(params, context)
            guard let id = request.id else { return nil }
            return try WireCodec.resultAnswer(id: id, result: result)
        }
    }

    /// As `register(_:atOnce:)`, for a handler that writes its answer's bytes itself (`status`,
    /// which splices in a part it keeps encoded): given the request's id, it returns the whole
    /// answer (no newline), the same bytes as `WireCodec.resultAnswer` of a result `R`. A
    /// notification runs nothing: such a handler only reads.
    mutating func register<P, R>(_ endpoint: Endpoint<P, R>,
                                 atOnceAnswering handler: @escaping @Sendable (P, RequestID) throws -> Data) {
        registerAtOnce(endpoint.method) { request, _ in
            let params = try request.params(P.self)
            guard let id = request.id else { return nil }
            return try handler(params, id)
        }
    }

    private mutating func registerAtOnce(_ method: WireMethod, _ runAtOnce: @escaping RunAtOnce) {
        guard admits(method) else { return }
        runs[method] = { request, context in try await Self.atOncePool.run { try runAtOnce(request, context) } }
        runsAtOnce[method] = runAtOnce
    }

    /// One plain thread for the handlers answered at once when a task runs them (below the I/O
    /// threads, as every `CPUWorkPool`: it answers only a `status` in a batch or behind another
    /// request of its connection, which waits for that request anyway).
    private static let atOncePool = CPUWorkPool(name: "usefulmapd-at-once", width: 1)

    func run(_ method: WireMethod) -> Run? { runs[method] }

    func runAtOnce(_ method: WireMethod) -> RunAtOnce? { runsAtOnce[method] }
}
