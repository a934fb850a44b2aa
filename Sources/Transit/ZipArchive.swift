import CZip
import Foundation

/// A GTFS zip opened read-only with libzip; members are streamed, never loaded whole.
///
/// ```swift
/// let zip = try ZipArchive(url: feedURL)
/// if let reader = try zip.open(member: "stops.txt") { while let chunk = try reader.read() { … } }
/// ```
final class ZipArchive {
    private let handle: OpaquePointer
    let url: URL

    /// - throws: `TransitError.feedNotFound` or `.notAZip` naming the file.
    init(url: URL) throws {
        self.url = url
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

    /// Member names, for messages and for finding files inside a top-level folder.
    var memberNames: [String] {
        let count = zip_get_num_entries(handle, 0)
        guard count > 0 else { return [] }
        return (0..<UInt64(count)).compactMap { index in
            zip_get_name(handle, index, 0).map { String(cString: $0) }
        }
    }

    /// Opens a member by its base name (feeds zipped with a top-level folder are common);
    /// `nil` when the archive has no such file.
    func open(member name: String) throws -> ZipMemberReader? {
        let index = zip_name_locate(handle, name, zip_flags_t(ZIP_FL_NODIR | ZIP_FL_NOCASE))
        guard index >= 0 else { return nil }
        guard let file = zip_fopen_index(handle, zip_uint64_t(index), 0) else {
            let reason = String(cString: zip_strerror(handle))
            throw TransitError.unreadableFile(file: name, reason: reason)
        }
        return ZipMemberReader(file: file, name: name)
    }
}

/// Sequential reader of one zip member in fixed-size chunks.
final class ZipMemberReader: ByteChunkSource {
    private let file: OpaquePointer
    let name: String
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    fileprivate init(file: OpaquePointer, name: String) {
        self.file = file
        self.name = name
    }

    deinit { zip_fclose(file) }

    /// The next chunk, or `nil` at the end of the member.
    func nextChunk() throws -> ArraySlice<UInt8>? {
        let count = buffer.withUnsafeMutableBytes { raw -> Int64 in
            guard let base = raw.baseAddress else { return 0 }
            return zip_fread(file, base, zip_uint64_t(raw.count))
        }
        if count < 0 {
            let reason = String(cString: zip_file_strerror(file))
            throw TransitError.unreadableFile(file: name, reason: reason)
        }
        return count == 0 ? nil : buffer[0..<Int(count)]
    }
}

/// Anything the CSV reader can pull bytes from (a zip member, or bytes in memory in tests).
protocol ByteChunkSource: AnyObject {
    func nextChunk() throws -> ArraySlice<UInt8>?
}
