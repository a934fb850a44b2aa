import Fetching
import Foundation
import Glibc
import Streets

/// Fetches a region's sources given by URL into copies the daemon keeps,
/// `<data>/sources/<region>/<url-hash>/<name>` or `…/<url-hash>/next/<name>`, which the import
/// then reads like files. A new download goes to the one of the two the region does not use,
/// so the copy it uses changes only when the import accepts the new one (the manifest then
/// names it); a refused download leaves it as it was. A transfer under way is `<name>.part`,
/// with the strong `ETag` it began with in `<name>.part.etag`: an interrupted one is resumed by
/// the next attempt with `Range` and `If-Range` on that ETag, never without one, and a rest
/// from another version of the file starts the transfer again whole. A refused transfer is
/// removed. Two fetches of one region never run at once (a `flock` on the region's folder).
struct SourceDownloader: Sendable {
    /// `<data>/sources`.
    let directory: URL
    /// Seconds without a byte before a transfer counts as stalled (`fetch_stall_timeout`).
    var stallTimeout: TimeInterval = 60
    var connectTimeout: TimeInterval = 10
    /// Follow a redirect to another host or port (`allow_cross_host_redirects`).
    var allowCrossHostRedirects = false
    var fetcher = HTTPFetcher()

    /// One source fetched: the copy to import and where it came from.
    struct Fetched: Sendable {
        var file: URL
        var origin: RegionSourceOrigin
        /// The server said the copy held is current (a conditional request answered 304).
        var notModified: Bool
    }

    init(dataDirectory: URL) {
        directory = dataDirectory.appendingPathComponent("sources", isDirectory: true)
    }

    /// Fetches `url` for region `region` as a source of kind `role` ("osm" or a step's name).
    /// - parameter previous: the copy held and its validators, for a conditional request.
    /// - parameter progress: bytes so far and expected; false cancels.
    /// - throws: `SourceFetchError` naming the source (its URL redacted), `StreetsError.importInProgress`.
    func fetch(_ url: String, region: String, role: String, limit: SourceSizeLimit, previous: RegionSourceFile? = nil,
               progress: @escaping @Sendable (Int, Int?) -> Bool) throws -> Fetched {
        let folder = directory.appendingPathComponent(region, isDirectory: true)
            .appendingPathComponent(Self.folderName(of: url), isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw SourceFetchError(url: url, role: role, code: "fetch_write_failed", reason: "cannot create the download folder")
        }
        let lock = try FolderLock(folder: folder.deletingLastPathComponent(), region: region)
        defer { lock.release() }

        let name = Self.fileName(of: url, role: role)
        let part = folder.appendingPathComponent(name + ".part")
        let validator = URL(fileURLWithPath: part.path + ".etag")
        var request = FetchRequest(url: url, maxBytes: Int(clamping: limit.bytes))
        request.connectTimeout = connectTimeout
        request.stallTimeout = stallTimeout
        request.allowCrossHostRedirects = allowCrossHostRedirects
        let held = previous.flatMap { previous in
            previous.origin?.url == url && FileManager.default.fileExists(atPath: previous.path) ? previous : nil
        }
        // The copy the region does not use: the one it uses changes only once an import takes the new one.
        let primary = folder.appendingPathComponent(name)
        let file = held.map { URL(fileURLWithPath: $0.path).standardizedFileURL } == primary.standardizedFileURL
            ? folder.appendingPathComponent("next", isDirectory: true).appendingPathComponent(name) : primary
        request.ifNoneMatch = held?.origin?.etag
        request.ifModifiedSince = held?.origin?.lastModified
        // Only a recent part with the strong ETag it began with is resumed: an older one, or one
        // without a validator, may be of a file the server has replaced since.
        let attributes = try? FileManager.default.attributesOfItem(atPath: part.path)
        let partial = attributes?[.size] as? Int ?? 0
        let age = (attributes?[.modificationDate] as? Date).map { Date().timeIntervalSince($0) } ?? .infinity
        let began = (try? String(contentsOf: validator, encoding: .utf8)).flatMap { $0.isEmpty ? nil : $0 }
        if partial > 0, age < Self.resumableAge, let began {
            request.resumeFrom = partial
            request.ifRange = began
        } else if attributes != nil {
            Self.discard(part)
        }

        let response: FetchResponse
        do {
            do {
                response = try fetcher.fetch(request, into: .file(part), progress: progress)
            } catch FetchError.changedWhileResuming {
                // The rest came from another version: what was held is of no use; fetch it whole.
                Self.discard(part)
                request.resumeFrom = nil
                request.ifRange = nil
                response = try fetcher.fetch(request, into: .file(part), progress: progress)
            }
        } catch {
            if !Self.isWorthResuming(error) { Self.discard(part) }
            throw SourceFetchError(url: url, role: role, error: error, limit: limit)
        }
        let fetchedAt = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        if response.notModified, let held, let origin = held.origin {
            var kept = origin
            kept.fetchedAt = fetchedAt
            return Fetched(file: URL(fileURLWithPath: held.path), origin: kept, notModified: true)
        }
        if let type = response.contentType, type.lowercased().hasPrefix("text/html") {
            Self.discard(part)
            throw SourceFetchError(url: url, role: role, code: "fetch_not_a_source",
                                   reason: "the server sent an HTML page (Content-Type \(type)), not \(Self.kind(of: role))")
        }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        unlink(validator.path)
        guard rename(part.path, file.path) == 0 else {
            throw SourceFetchError(url: url, role: role, code: "fetch_write_failed", reason: "cannot keep the download (errno \(errno))")
        }
        return Fetched(file: file,
                       origin: RegionSourceOrigin(url: url, etag: response.etag, lastModified: response.lastModified,
                                                  fetchedAt: fetchedAt),
                       notModified: false)
    }

    /// Removes the copies of `region` that no source of `manifest` uses any more (after an
    /// import went live), or every copy (after the region was removed, `manifest` nil).
    func removeUnused(region: String, keeping manifest: RegionManifest?) {
        let regionFolder = directory.appendingPathComponent(region, isDirectory: true)
        guard let manifest else {
            try? FileManager.default.removeItem(at: regionFolder)
            return
        }
        let used = Set(manifest.sources.compactMap { $0.origin == nil ? nil : URL(fileURLWithPath: $0.path).deletingLastPathComponent().lastPathComponent })
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: regionFolder.path)) ?? []
        where !entry.hasPrefix(".") && !used.contains(entry) {
            try? FileManager.default.removeItem(at: regionFolder.appendingPathComponent(entry))
        }
    }

    /// Removes a part and the validator it began with.
    static func discard(_ part: URL) {
        unlink(part.path)
        unlink(part.path + ".etag")
    }

    /// How old a broken transfer's part may be to be resumed.
    static let resumableAge: TimeInterval = 3_600

    /// A broken transfer keeps what arrived for the next attempt; a refused one is dropped.
    static func isWorthResuming(_ error: FetchError) -> Bool {
        switch error {
        case .cutOff, .stalled, .timedOut, .connectionFailed, .cancelled: true
        default: false
        }
    }

    /// One folder per URL, named by a hash of it (FNV-1a: nothing secret shows in the name).
    static func folderName(of url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// The URL's last path segment when it is a plain file name with the ending the import
    /// needs (planetsplitter knows a format by its name), else a name for the kind.
    static func fileName(of url: String, role: String) -> String {
        let path = SourceURL.redacted(url).split(separator: "/", omittingEmptySubsequences: false).dropFirst(3)
        let last = path.last.map(String.init)?.removingPercentEncoding ?? ""
        let plain = !last.isEmpty && !last.hasPrefix(".") && last.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        let lowercased = last.lowercased()
        if role == "osm" {
            return plain && (lowercased.hasSuffix(".pbf") || lowercased.hasSuffix(".osm")) ? last : "extract.osm.pbf"
        }
        return plain ? last : "feed.zip"
    }

    static func kind(of role: String) -> String {
        role == "osm" ? "an OpenStreetMap extract" : "a GTFS feed"
    }
}

/// A source that could not be fetched: the fetch error's code, and a message naming the
/// source by its redacted URL.
struct SourceFetchError: Error, CodedError, CustomStringConvertible, Equatable {
    let code: String
    let description: String

    init(url: String, role: String, code: String, reason: String) {
        self.code = code
        description = "\(role == "osm" ? "OSM extract" : "GTFS feed") \(SourceURL.redacted(url)): \(reason)"
    }

    /// A file source that can't be checked.
    init(path: String, role: String, reason: String) {
        code = "source_not_found"
        description = "\(role == "osm" ? "OSM extract" : "GTFS feed") \(path) \(reason)"
    }

    init(url: String, role: String, error: FetchError, limit: SourceSizeLimit) {
        var reason = error.message
        if case .tooLarge = error {
            reason = "the download is larger than \((limit.bytes + (1 << 20) - 1) >> 20) MiB, the limit for \(limit.kind) "
                + "(setting \(limit.setting))"
        }
        self.init(url: url, role: role, code: error.code, reason: reason)
    }
}

/// An exclusive, non-blocking `flock` on a region's download folder.
private struct FolderLock {
    let descriptor: Int32

    init(folder: URL, region: String) throws {
        descriptor = open(folder.appendingPathComponent(".lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StreetsError.importFailed(phase: "downloading", message: "cannot lock the download folder") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw StreetsError.importInProgress(region)
        }
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
