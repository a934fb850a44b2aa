import Foundation
import WireProtocol

/// Errors of the daemon itself (start-up and request handling). `code` goes on the wire.
public enum DaemonError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another daemon answers on the socket.
    case socketInUse(String)
    case socketSetup(String)
    case noRegion
    case notFound(String)
    case invalidParams(String)
    case placeNotFound(String)
    /// Text whose only match in the region that must hold it is a fuzzy one, while another
    /// region has it exactly: "Kiasma: not in tampere …; did you mean Kiasma in helsinki?".
    case placeElsewhere(text: String, here: String, found: String, exact: String, region: String)
    case noLocation
    case alreadyExists(String)
    /// Another edit changed the plan while this one was computed.
    case conflict(String)
    /// An edit's expected generation is not the plan's (`conflict` on the wire, with the plan's
    /// `generation` in its data, so a client can tell it from the other conflicts).
    case staleGeneration(plan: Int64, generation: Int64, expected: Int64)
    case unsupportedVersion(client: Int)
    case shuttingDown

    public var code: String {
        switch self {
        case .socketInUse: "socket_in_use"
        case .socketSetup: "socket_setup"
        case .noRegion: WireError.Code.noRegion.rawValue
        case .notFound: WireError.Code.notFound.rawValue
        case .invalidParams: WireError.Code.invalidParams.rawValue
        case .placeNotFound, .placeElsewhere: WireError.Code.placeNotFound.rawValue
        case .noLocation: WireError.Code.noLocation.rawValue
        case .alreadyExists: WireError.Code.alreadyExists.rawValue
        case .conflict, .staleGeneration: WireError.Code.conflict.rawValue
        case .unsupportedVersion: WireError.Code.unsupportedVersion.rawValue
        case .shuttingDown: WireError.Code.shuttingDown.rawValue
        }
    }

    public var description: String {
        switch self {
        case .socketInUse(let path): "another usefulmapd is already answering on \(path)"
        case .socketSetup(let message): message
        case .noRegion: "no region imported: run `umctl region import NAME --osm FILE [--gtfs FILE]` first"
        case .notFound(let message): message
        case .invalidParams(let message): message
        case .placeNotFound(let text): "no place found for \"\(text)\""
        case .placeElsewhere(let text, let here, let found, let exact, let region):
            "\(text): not in \(here) (only \"\(found)\", not an exact match); did you mean \(exact) in \(region)?"
        case .noLocation: "@here needs a location: run `umctl location set LAT,LON` first"
        case .alreadyExists(let message): message
        case .conflict(let message): message
        case .staleGeneration(let plan, let generation, let expected):
            "plan \(plan) is at generation \(generation), not \(expected): another edit came first; nothing was changed"
        case .unsupportedVersion(let client):
            "protocol version \(client) is not supported: this usefulmapd speaks \(ProtocolVersion.oldestSupported)...\(ProtocolVersion.current); update umctl"
        case .shuttingDown: "usefulmapd is shutting down"
        }
    }

    /// Detail fields for the wire error's `data`, beside its code.
    public var data: JSONValue? {
        guard case .staleGeneration(_, let generation, _) = self else { return nil }
        return .object(["generation": .number(Double(generation))])
    }
}
