import Foundation

/// One HTTP(S) GET: the URL, the validators of the copy already held, and the limits the
/// transfer must stay within.
///
/// ```swift
/// var request = FetchRequest(url: "https://example.org/gtfs.zip", maxBytes: 512 << 20)
/// request.ifNoneMatch = manifest.etag
/// let response = try HTTPFetcher().fetch(request, into: .file(partFile))
/// ```
public struct FetchRequest: Sendable {
    public var url: String
    /// Sent as `If-None-Match`: the server's `ETag` of the copy already held.
    public var ifNoneMatch: String?
    /// Sent as `If-Modified-Since`: the server's `Last-Modified` of the copy held, verbatim.
    public var ifModifiedSince: String?
    /// A `Content-Length` above it is refused before the body comes; a body passing it is cut.
    public var maxBytes: Int
    /// Seconds to establish the connection.
    public var connectTimeout: TimeInterval = 10
    /// Seconds without a byte received before the transfer counts as stalled.
    public var stallTimeout: TimeInterval = 60
    /// Seconds for the whole transfer, or nil for no overall limit (realtime polls use 10 s).
    public var totalTimeout: TimeInterval?
    /// Redirects followed before the transfer counts as a redirect loop.
    public var maxRedirects = 5
    /// Follow redirects to another host or port than the one in `url`; false (the default):
    /// such a redirect fails with `FetchError.crossHostRedirect` before it is followed.
    public var allowCrossHostRedirects = false
    /// For a `.file` destination that already holds this many bytes of an interrupted
    /// transfer: asks for the rest (`Range: bytes=N-`), only together with `ifRange`. A server
    /// that answers with the whole body instead has the file rewritten from the start.
    public var resumeFrom: Int?
    /// The strong `ETag` the interrupted transfer began with, sent as `If-Range`: a server whose
    /// file changed since sends it whole. A 206 with another `ETag` (a server ignoring
    /// `If-Range`) is refused with `FetchError.changedWhileResuming`, so two versions are never
    /// joined. Without it nothing is resumed.
    public var ifRange: String?
    /// Asked about once a second while the transfer runs, stalled or not: true ends it with
    /// `FetchError.cancelled` (a daemon stopping does not wait for a stalled server's timeout).
    public var isCancelled: (@Sendable () -> Bool)?

    public init(url: String, maxBytes: Int) {
        self.url = url
        self.maxBytes = maxBytes
    }
}
