import CZip
import Foundation

/// A GTFS zip opened read-only with libzip; members are streamed, never loaded whole, and
/// held to `GTFSLimits`: by their central-directory sizes before reading, and by the bytes
/// that actually come out while streaming (a header can lie).
///
/// ```swift
/// let zip = try ZipArchive(url: feedURL)
/// try zip.checkDeclaredSizes(of: ["stops.txt", "stop_times.txt"])
/// if let reader = try zip.open(member: "stops.txt") { while let chunk = try reader.nextChunk() { … } }
/// ```
final class ZipArchive {
    private let handle: OpaquePointer
    let url: URL
    let limits: GTFSLimits
    /// Uncompressed bytes streamed from every member so far (the feed-wide bound).
    fileprivate var bytesRead: Int64 = 0

    /// - throws: `TransitError.feedNotFound` or `.notAZip` naming the file.
    init(url: URL, limits: GTFSLimits = GTFSLimits()) throws {
        self.url = url
        self.limits = limits
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw TransitError.feedNotFound(url.path)
        }
        var code: Int32 = 0
        guard let handle = zip_open(url.path, ZIP_RDONLY, &code) else {
            var error = zip_error_t()
            zip_error_init_with_code(&error, code)
            let reason = String(cString: zip_error_strerror(&error))
            zip_error_fini(&error)
            throw TransitError.notAZip(path: url.path, reason: reason)
        }
        self.handle = handle
    }

    deinit { zip_discard(handle) }

    var feedName: String { url.lastPathComponent }

    /// Member names, for messages and for finding files inside a top-level folder.
    var memberNames: [String] {
        let count = zip_get_num_entries(handle, 0)
        guard count > 0 else { return [] }
        return (0..<UInt64(count)).compactMap { index in
            zip_get_name(handle, index, 0).map { String(cString: $0) }
        }
    }

    /// Each member's name, uncompressed size and CRC-32 from the central directory, in
    /// directory order: what tells a feed kept as a part (`FeedPart`) from a changed one
    /// without decompressing anything.
    var memberFingerprints: [FeedPart.Member] {
        let count = zip_get_num_entries(handle, 0)
        guard count > 0 else { return [] }
        return (0..<UInt64(count)).compactMap { index in
            var stat = zip_stat_t()
            zip_stat_init(&stat)
            let wanted = zip_uint64_t(ZIP_STAT_NAME) | zip_uint64_t(ZIP_STAT_SIZE) | zip_uint64_t(ZIP_STAT_CRC)
            guard zip_stat_index(handle, index, 0, &stat) == 0, stat.valid & wanted == wanted, let name = stat.name else { return nil }
            return FeedPart.Member(name: String(cString: name), size: stat.size, crc: stat.crc)
        }
    }

    /// Refuses, before anything is decompressed, a feed whose central directory declares a
    /// file or a total over the limits, or a large file compressed like a zip bomb.
    /// - parameter names: the files that will be read (others, such as shapes.txt, are ignored).
    /// - throws: `TransitError.limitExceeded` naming the file and the limit.
    func checkDeclaredSizes(of names: [String]) throws {
        var total: Int64 = 0
        for name in names {
            guard let index = locate(name), let (size, compressed) = declaredSizes(index) else { continue }
            try check(name, bytes: size, compressed: compressed)
            total += size
            if total > limits.maxFeedBytes {
                throw TransitError.limitExceeded(feed: feedName, file: name, limit: .feedSize(limit: limits.maxFeedBytes))
            }
        }
    }

    /// Opens a member by its base name (feeds zipped with a top-level folder are common);
    /// `nil` when the archive has no such file.
    func open(member name: String) throws -> ZipMemberReader? {
        guard let index = locate(name) else { return nil }
        let declared = declaredSizes(index)
        if let declared { try check(name, bytes: declared.size, compressed: declared.compressed) }
        guard let file = zip_fopen_index(handle, index, 0) else {
            let reason = String(cString: zip_strerror(handle))
            throw TransitError.unreadableFile(file: name, reason: reason)
        }
        return ZipMemberReader(file: file, name: name, archive: self, declared: declared)
    }

    private func locate(_ name: String) -> zip_uint64_t? {
        let index = zip_name_locate(handle, name, zip_flags_t(ZIP_FL_NODIR | ZIP_FL_NOCASE))
        return index >= 0 ? zip_uint64_t(index) : nil
    }

    /// Uncompressed and compressed size from the central directory, when it gives both.
    private func declaredSizes(_ index: zip_uint64_t) -> (size: Int64, compressed: Int64)? {
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        let wanted = zip_uint64_t(ZIP_STAT_SIZE) | zip_uint64_t(ZIP_STAT_COMP_SIZE)
        guard zip_stat_index(handle, index, 0, &stat) == 0, stat.valid & wanted == wanted,
              stat.size <= UInt64(Int64.max), stat.comp_size <= UInt64(Int64.max) else { return nil }
        return (Int64(stat.size), Int64(stat.comp_size))
    }

    /// `bytes` uncompressed from `compressed` bytes of member `name`: within the per-file
    /// limit and, past the floor, the compression ratio.
    fileprivate func check(_ name: String, bytes: Int64, compressed: Int64) throws {
        if bytes > limits.maxFileBytes {
            throw TransitError.limitExceeded(feed: feedName, file: name, limit: .fileSize(limit: limits.maxFileBytes))
        }
        if bytes > GTFSLimits.ratioFloorBytes, bytes / max(compressed, 1) >= limits.maxCompressionRatio {
            throw TransitError.limitExceeded(feed: feedName, file: name, limit: .compressionRatio(limit: limits.maxCompressionRatio))
        }
    }
}

/// Sequential reader of one zip member in fixed-size chunks, counting what comes out.
final class ZipMemberReader: ByteChunkSource {
    private let file: OpaquePointer
    let name: String
    /// Kept alive while the member is open (libzip's file belongs to the archive).
    private let archive: ZipArchive
    private let declared: (size: Int64, compressed: Int64)?
    private var bytesRead: Int64 = 0
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    fileprivate init(file: OpaquePointer, name: String, archive: ZipArchive, declared: (size: Int64, compressed: Int64)?) {
        self.file = file
        self.name = name
        self.archive = archive
        self.declared = declared
    }

    deinit { zip_fclose(file) }

    /// The next chunk, or `nil` at the end of the member.
    /// - throws: `TransitError.limitExceeded` as soon as the member or the feed goes past a limit.
    func nextChunk() throws -> ArraySlice<UInt8>? {
        let count = buffer.withUnsafeMutableBytes { raw -> Int64 in
            guard let base = raw.baseAddress else { return 0 }
            return zip_fread(file, base, zip_uint64_t(raw.count))
        }
        if count < 0 {
            let reason = String(cString: zip_file_strerror(file))
            throw TransitError.unreadableFile(file: name, reason: reason)
        }
        bytesRead += count
        archive.bytesRead += count
        if let declared, bytesRead > declared.size {
            throw TransitError.limitExceeded(feed: archive.feedName, file: name, limit: .declaredSize(declared: declared.size))
        }
        try archive.check(name, bytes: bytesRead, compressed: declared?.compressed ?? .max)
        if archive.bytesRead > archive.limits.maxFeedBytes {
            throw TransitError.limitExceeded(feed: archive.feedName, file: name, limit: .feedSize(limit: archive.limits.maxFeedBytes))
        }
        return count == 0 ? nil : buffer[0..<Int(count)]
    }
}

/// Anything the CSV reader can pull bytes from (a zip member, or bytes in memory in tests).
protocol ByteChunkSource: AnyObject {
    func nextChunk() throws -> ArraySlice<UInt8>?
}
