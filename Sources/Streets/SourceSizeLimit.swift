import Foundation

/// How large one kind of import source may be, with the words its refusal uses. A source
/// is checked by its size before a byte of it is read (a sparse file of terabytes hashes for
/// hours), and a pipe's copy stops at the limit.
///
/// ```swift
/// let limit = SourceSizeLimit(bytes: 16 << 30, kind: "an OSM file", setting: "osm_max_mb")
/// try limit.check(size: 20 << 30, of: "/maps/europe.osm.pbf")   // throws source_too_large
/// ```
public struct SourceSizeLimit: Hashable, Sendable {
    public var bytes: Int64
    /// What the limit is for, as the error says it: "an OSM file".
    public var kind: String
    /// The setting that changes it: "osm_max_mb".
    public var setting: String

    public init(bytes: Int64, kind: String, setting: String) {
        self.bytes = bytes
        self.kind = kind
        self.setting = setting
    }

    /// - throws: `StreetsError.sourceTooLarge` when `size` is over the limit.
    public func check(size: Int64, of path: String) throws {
        guard size > bytes else { return }
        throw StreetsError.sourceTooLarge("\(path) is \(Self.mebibytes(size)), more than \(Self.mebibytes(bytes)), "
            + "the limit for \(kind) (setting \(setting)); refused before reading it")
    }

    /// The refusal of a pipe or device (read as it comes, into a copy) that gave more than the limit.
    public func refusingCopy(of path: String) -> StreetsError {
        .sourceTooLarge("\(path) (not a regular file, so copied) gave more than \(Self.mebibytes(bytes)), the limit for \(kind) "
            + "(setting \(setting)); the copy was stopped and removed")
    }

    /// Whole MiB, rounded up, so a size just over a limit never reads as equal to it.
    static func mebibytes(_ bytes: Int64) -> String {
        "\((bytes + (1 << 20) - 1) >> 20) MiB"
    }
}
