/// Errors from the domain when the user asks for something impossible. `code` goes on the wire.
public enum PlannerError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidCoordinate(latitude: Double, longitude: Double)
    case tooFewNodes(Int)
    case nodeIndexOutOfRange(index: Int, nodeCount: Int)
    case segmentIndexOutOfRange(index: Int, segmentCount: Int)
    case cannotRemoveEndpoint(index: Int)
    case noPendingUpdate(segment: Int)
    /// The pending update says no ride can be caught: it proposes nothing to accept.
    case nothingToAccept(segment: Int)
    case noLegToPin(segment: Int)
    /// The edit would put the same place on both ends of a segment.
    case samePlaceTwice(placeID: String, name: String)
    /// Two texts typed one after the other that name the same place: most often one name of
    /// several words typed without quotes, each word read as a place.
    case samePlaceTypedTwice(name: String, texts: [String])
    /// Every mode failed, so there is no plan to pick as the fastest.
    case noModeAvailable
    /// The Google Maps format file could not be read or is inconsistent.
    case linkFormatInvalid(String)
    /// A stay that can't be kept (at the destination, or a negative duration).
    case invalidStay(String)
    /// No departure on that line was found for the segment.
    case noDepartureOnLine(line: String, segment: Int)

    public var code: String {
        switch self {
        case .invalidCoordinate: "invalid_coordinate"
        case .tooFewNodes: "too_few_nodes"
        case .nodeIndexOutOfRange, .segmentIndexOutOfRange: "index_out_of_range"
        case .cannotRemoveEndpoint: "cannot_remove_endpoint"
        case .noPendingUpdate: "no_pending_update"
        case .nothingToAccept: "conflict"
        case .noLegToPin: "no_leg_to_pin"
        case .samePlaceTwice, .samePlaceTypedTwice: "same_place_twice"
        case .noModeAvailable: "no_mode_available"
        case .linkFormatInvalid: "link_format_invalid"
        case .invalidStay: "invalid_stay"
        case .noDepartureOnLine: "no_leg_to_pin"
        }
    }

    public var description: String {
        switch self {
        case let .invalidCoordinate(lat, lon):
            "invalid coordinate \(lat),\(lon): latitude must be within ±90 and longitude within ±180"
        case let .tooFewNodes(n): "a plan needs at least 2 places, got \(n)"
        case let .nodeIndexOutOfRange(i, n): "node \(i) does not exist (the plan has \(n) nodes)"
        case let .segmentIndexOutOfRange(i, n): "segment \(i) does not exist (the plan has \(n) segments)"
        case let .cannotRemoveEndpoint(i): "node \(i) is the origin or the destination and cannot be removed"
        case let .noPendingUpdate(s): "segment \(s) has no pending update"
        case let .nothingToAccept(s):
            "segment \(s)'s pending update proposes no ride (none can be caught): nothing to accept; dismiss it instead"
        case let .noLegToPin(s): "segment \(s) has no computed leg to pin"
        case let .samePlaceTwice(_, name): "\(name) would be at both ends of one segment"
        case let .samePlaceTypedTwice(name, texts):
            "\(texts.map { "\"\($0)\"" }.joined(separator: " and ")) both name \(name), which would then be at both ends of one "
                + "segment (each word typed apart is a place: a name of several words goes in quotes, \"\(texts.joined(separator: " "))\")"
        case .noModeAvailable: "no mode (walk, transit, car) found a route"
        case let .linkFormatInvalid(why): "the Google Maps link format is invalid: \(why)"
        case let .invalidStay(why): "invalid stay: \(why)"
        case let .noDepartureOnLine(line, s): "no departure of line \(line) found on segment \(s)"
        }
    }
}
