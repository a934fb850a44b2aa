import CZip
import Foundation

/// The one GTFS writer: a zip of `files` (name → CSV text), written with libzip.
public enum GTFSZip {
    public static func write(_ files: [String: String], to url: URL) throws {
        try write(bytes: files.mapValues { Array($0.utf8) }, to: url)
    }

    /// Zips every file of `folder` (a feed unpacked to be edited) into `url`, by name.
    public static func write(contentsOf folder: URL, to url: URL) throws {
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
        }
        try write(bytes: files, to: url)
    }

    private static func write(bytes files: [String: [UInt8]], to url: URL) throws {
        var code: Int32 = 0
        guard let archive = zip_open(url.path, ZIP_CREATE | ZIP_TRUNCATE, &code) else { throw HarnessError("zip_open \(url.path) failed: \(code)") }
        for (file, bytes) in files.sorted(by: { $0.key < $1.key }) {
            // libzip reads the buffer at zip_close and frees it (freep = 1), so it is malloc'ed.
            let buffer = malloc(max(bytes.count, 1))!
            bytes.withUnsafeBytes { if let base = $0.baseAddress { buffer.copyMemory(from: base, byteCount: $0.count) } }
            guard let source = zip_source_buffer(archive, buffer, zip_uint64_t(bytes.count), 1) else {
                free(buffer)
                zip_discard(archive)
                throw HarnessError("zip_source_buffer failed for \(file)")
            }
            guard zip_file_add(archive, file, source, zip_flags_t(ZIP_FL_OVERWRITE)) >= 0 else {
                zip_source_free(source)
                zip_discard(archive)
                throw HarnessError("zip_file_add failed for \(file)")
            }
        }
        guard zip_close(archive) == 0 else { throw HarnessError("zip_close \(url.path) failed") }
    }
}
