import Foundation
import WireProtocol

/// Every method's handler, each registered through its `Endpoint`: the handler takes the
/// endpoint's params type and returns its result type. This is the one place where a request's
/// params are decoded (once, from the request's text) and its result encoded (once, with the
/// answer's envelope).
///
/// ```swift
/// var table = MethodTable()
/// table.register(Endpoints.placeRemove) { params, _ in
///     try await places.removePlace(named: params.name)
///     return RemovedDocument(removed: params.name)
/// }
/// ```
public struct MethodTable: Sendable {
    /// Runs one request; returns its encoded answer, or nil for a notification.
    typealias Run = @Sendable (IncomingRequest, RequestContext) async throws -> Data?

    private var runs: [WireMethod: Run] = [:]

    public init() {}

    /// The methods that have a handler.
    public var methods: Set<WireMethod> { Set(runs.keys) }

    /// Registers the handler of `endpoint`; a second registration of a method replaces the first.
    public mutating func register<P, R>(_ endpoint: Endpoint<P, R>,
                                        _ handler: @escaping @Sendable (P, RequestContext) async throws -> R) {
        runs[endpoint.method] = { request, context in
            let params = try request.params(P.self)
            let result = try await handler(params, context)
            guard let id = request.id else { return nil }
            return try WireCodec.resultAnswer(id: id, result: result)
        }
    }

    func run(_ method: WireMethod) -> Run? { runs[method] }
}
