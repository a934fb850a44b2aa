import Foundation
import Glibc

/// Everything one transfer learns while libcurl runs it: the headers of the response under
/// way, the body so far, and the first failure, which stops the transfer. libcurl calls in
/// on the fetching thread only, through an `Unmanaged` pointer to this box.
final class TransferState {
    let request: FetchRequest
    let destination: FetchDestination
    let progress: (@Sendable (Int, Int?) -> Bool)?

    // The response whose headers are being read (a redirect starts a new one).
    private(set) var status = 0
    private(set) var etag: String?
    private(set) var lastModified: String?
    private(set) var contentType: String?
    /// Where a redirect points (libcurl does not say when it refuses to follow it).
    private(set) var location: String?
    /// The URL whose response is being read: the request's, then each redirect's target.
    private var currentURL: String
    private var contentLength: Int?
    private var contentRangeStart: Int?

    /// A 2xx answer whose body is being kept.
    private(set) var acceptingBody = false
    private(set) var resumed = false
    /// Bytes at the destination before this response's body (the resumed part).
    private(set) var offset = 0
    private(set) var received = 0
    private(set) var expected: Int?
    private(set) var body = Data()
    private var file: Int32 = -1
    private var reportedBytes = -1

    /// The first reason to stop; the callbacks abort the transfer once it is set.
    private(set) var failure: FetchError?

    init(request: FetchRequest, destination: FetchDestination, progress: (@Sendable (Int, Int?) -> Bool)?) {
        self.request = request
        self.destination = destination
        self.progress = progress
        currentURL = request.url
    }

    deinit { closeFile() }

    var total: Int { offset + received }

    // MARK: - Headers

    /// One header line (with its CRLF); false stops the transfer.
    func header(_ line: String) -> Bool {
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("HTTP/") {
            startResponse(statusLine: text)
            return true
        }
        if text.isEmpty { return headersEnded() }
        guard let colon = text.firstIndex(of: ":") else { return true }
        let name = text[..<colon].lowercased()
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        switch name {
        case "etag": etag = value
        case "last-modified": lastModified = value
        case "content-type": contentType = value
        case "location": location = value
        case "content-length": contentLength = Int(value)
        case "content-range": contentRangeStart = Self.rangeStart(value)
        default: break
        }
        return true
    }

    private func startResponse(statusLine: String) {
        let parts = statusLine.split(separator: " ")
        status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        etag = nil
        lastModified = nil
        contentType = nil
        location = nil
        contentLength = nil
        contentRangeStart = nil
        acceptingBody = false
    }

    /// "bytes 100-199/200" → 100.
    private static func rangeStart(_ value: String) -> Int? {
        guard value.lowercased().hasPrefix("bytes ") else { return nil }
        let range = value.dropFirst("bytes ".count)
        return range.split(separator: "-").first.flatMap { Int($0) }
    }

    private func headersEnded() -> Bool {
        switch status {
        case 200..<300:
            return beginBody()
        case 400...:
            return stop(.httpStatus(status))
        case 300..<400 where status != 304:
            return checkRedirect()
        default:
            // 1xx, redirects (libcurl follows them) and 304: no body to keep.
            return true
        }
    }

    /// A redirect libcurl is about to follow: refused when it leaves the named host or port
    /// and the request does not allow that. Other schemes are left to libcurl, which refuses them.
    private func checkRedirect() -> Bool {
        guard let location, let target = RedirectTarget.resolve(location, from: currentURL),
              let scheme = SourceURL.scheme(of: target), scheme == "http" || scheme == "https" else { return true }
        if !request.allowCrossHostRedirects, !RedirectTarget.staysOnHost(target, named: request.url) {
            return stop(.crossHostRedirect(from: SourceURL.redacted(currentURL), to: SourceURL.redacted(target)))
        }
        currentURL = target
        return true
    }

    private func beginBody() -> Bool {
        let wantedResume = resumeOffset
        if status == 206 {
            guard wantedResume > 0, contentRangeStart == wantedResume else {
                return stop(.connectionFailed("the server sent a range that was not asked for"))
            }
            guard etag == request.ifRange else { return stop(.changedWhileResuming) }
            resumed = true
            offset = wantedResume
        } else {
            resumed = false
            offset = 0
        }
        received = 0
        body = Data()
        expected = contentLength.map { $0 + offset }
        if let expected, expected > request.maxBytes { return stop(.tooLarge(limit: request.maxBytes)) }
        if case .file(let url) = destination {
            closeFile()
            let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (resumed ? O_APPEND : O_TRUNC)
            file = open(url.path, flags, 0o644)
            guard file >= 0 else { return stop(.writeFailed("\(url.path): \(String(cString: strerror(errno)))")) }
            if resumed, ftruncate(file, off_t(offset)) != 0 {
                return stop(.writeFailed("\(url.path): \(String(cString: strerror(errno)))"))
            }
        }
        acceptingBody = true
        if case .file(let url) = destination, !resumed { recordValidator(of: url) }
        return true
    }

    /// Beside a file fetched from its start, `<file>.etag` holds the response's strong `ETag`:
    /// the validator a later request resumes it on (`FetchRequest.ifRange`). Without one, the
    /// file is not resumable and any old record goes.
    private func recordValidator(of url: URL) {
        let record = url.path + ".etag"
        if let etag, Self.isStrong(etag) {
            try? Data(etag.utf8).write(to: URL(fileURLWithPath: record))
        } else {
            unlink(record)
        }
    }

    /// A strong validator: an `ETag` that is not weak (`W/"…"`), the only kind that says two
    /// ranges come from the same bytes.
    static func isStrong(_ etag: String) -> Bool { etag.hasPrefix("\"") }

    /// The byte the request asks to resume from (a memory destination never resumes).
    var resumeOffset: Int {
        guard case .file = destination, let from = request.resumeFrom, from > 0,
              let validator = request.ifRange, Self.isStrong(validator) else { return 0 }
        return from
    }

    // MARK: - Body

    /// A piece of the body; false stops the transfer.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil else { return false }
        guard acceptingBody else { return true }
        guard total + bytes.count <= request.maxBytes else { return stop(.tooLarge(limit: request.maxBytes)) }
        if file >= 0 {
            var rest = bytes
            while !rest.isEmpty {
                let written = Glibc.write(file, rest.baseAddress, rest.count)
                if written < 0 {
                    if errno == EINTR { continue }
                    return stop(.writeFailed(String(cString: strerror(errno))))
                }
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            }
        } else {
            body.append(contentsOf: bytes)
        }
        received += bytes.count
        return true
    }

    /// Called by libcurl about once a second and after each piece; false stops the transfer.
    func reportProgress() -> Bool {
        guard failure == nil else { return false }
        if let isCancelled = request.isCancelled, isCancelled() { return stop(.cancelled) }
        guard let progress, acceptingBody, total != reportedBytes else { return true }
        reportedBytes = total
        return progress(total, expected) ? true : stop(.cancelled)
    }

    /// Ends the transfer's file; a failure to close is a failure to write.
    func finishFile() throws(FetchError) {
        guard file >= 0 else { return }
        let result = close(file)
        file = -1
        if result != 0 { throw .writeFailed(String(cString: strerror(errno))) }
    }

    private func closeFile() {
        if file >= 0 { close(file) }
        file = -1
    }

    private func stop(_ reason: FetchError) -> Bool {
        if failure == nil { failure = reason }
        return false
    }
}
