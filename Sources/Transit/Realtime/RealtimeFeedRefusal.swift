import Foundation

/// Why a GTFS-Realtime body was not decoded, for `TransitError.realtimeFeedInvalid`. The
/// description names what was wrong, in words a person reading `status` can act on.
public enum RealtimeFeedRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing came.
    case empty
    /// Larger than `RealtimeFeed.maximumBytes`: refused before decoding.
    case tooLarge(bytes: Int, limit: Int)
    /// The body starts with `<`: a server's error or login page sent with status 200.
    case htmlPage
    /// Not protobuf wire format at all: garbage, or a body cut short. `offset` is where
    /// reading went wrong, `byteCount` the body's length.
    case notProtobuf(detail: String, offset: Int, byteCount: Int)
    /// Well-formed protobuf whose FeedMessage has no `header`.
    case missingHeader
    /// The header has no `gtfs_realtime_version`.
    case missingVersion
    /// A field GTFS-Realtime requires is absent, e.g. `entity[3].id`.
    case missingRequiredField(path: String)
    /// A time outside `RealtimeInstant.range` (before 1970 or after 9999), e.g.
    /// `entity[0].trip_update.stop_time_update[1].arrival.time` of -9223372036854775808.
    case instantOutOfRange(field: String, value: String)
    /// protobuf-c refused a body in which no fault could be named (out of memory?).
    case undecodable

    public var description: String {
        switch self {
        case .empty: "the body is empty"
        case let .tooLarge(bytes, limit):
            "the body is \(GTFSLimit.mebibytes(Int64(bytes))), above the \(GTFSLimit.mebibytes(Int64(limit))) limit for a feed"
        case .htmlPage: "an HTML page, not a GTFS-Realtime feed"
        case let .notProtobuf(detail, offset, byteCount):
            "not a protobuf FeedMessage (garbage or truncated): \(detail) at byte \(offset) of \(byteCount)"
        case .missingHeader: "the FeedMessage has no header"
        case .missingVersion: "the feed header has no gtfs_realtime_version"
        case .missingRequiredField(let path): "\(path) is missing, which GTFS-Realtime requires"
        case let .instantOutOfRange(field, value):
            "\(field) is \(value), not a time between 1970 and 9999 (POSIX seconds \(RealtimeInstant.range.lowerBound)...\(RealtimeInstant.range.upperBound))"
        case .undecodable: "protobuf-c could not decode the FeedMessage"
        }
    }
}
