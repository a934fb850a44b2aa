import Foundation

/// Bounds that keep a hostile or broken feed (a zip bomb, a file without line ends) from
/// exhausting the importing process. Each is a daemon setting (docs/operations.md).
///
/// ```swift
/// var importer = GTFSImporter()
/// importer.limits.maxFileBytes = 256 << 20
/// ```
/// Sizes are checked twice: against the zip's central directory before anything is read, and
/// while streaming, because a header can lie.
public struct GTFSLimits: Hashable, Sendable {
    /// Uncompressed bytes of one file of a feed.
    public var maxFileBytes: Int64 = 1 << 30
    /// Uncompressed bytes of the files read from one feed, together.
    public var maxFeedBytes: Int64 = 2 << 30
    /// Uncompressed ÷ compressed size of one file, once it is past `ratioFloorBytes`.
    public var maxCompressionRatio: Int64 = 100
    /// Bytes of one CSV record (a line, or several when a quoted field holds newlines).
    public var maxLineBytes: Int = 64 << 10
    /// How much an import may grow the process's resident memory (`/proc/self/statm`).
    public var maxImportMemoryBytes: Int64 = 2 << 30

    /// Small files may compress very well (a calendar of identical rows); only files larger
    /// than this are held to `maxCompressionRatio`.
    public static let ratioFloorBytes: Int64 = 1 << 20

    public init() {}
}

/// Which bound a feed went past, for `TransitError.limitExceeded`.
public enum GTFSLimit: Hashable, Sendable, CustomStringConvertible {
    case fileSize(limit: Int64)
    case feedSize(limit: Int64)
    case compressionRatio(limit: Int64)
    /// More bytes came out of a member than its zip header declares.
    case declaredSize(declared: Int64)
    case lineLength(limit: Int, line: Int)
    case importMemory(limit: Int64)

    public var description: String {
        switch self {
        case .fileSize(let limit): "expands past \(Self.mebibytes(limit)), the limit for one file"
        case .feedSize(let limit): "brings the feed past \(Self.mebibytes(limit)) uncompressed, the limit for one feed"
        case .compressionRatio(let limit): "is compressed more than \(limit):1, the limit for a file (a zip bomb?)"
        case .declaredSize(let declared): "expands past the \(declared) bytes its zip header declares (a damaged or hostile zip)"
        case let .lineLength(limit, line): "line \(line) is longer than \(limit / 1024) KiB, the limit for one line"
        case .importMemory(let limit): "needs more than \(Self.mebibytes(limit)) of memory, the limit for an import"
        }
    }

    static func mebibytes(_ bytes: Int64) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }
}
