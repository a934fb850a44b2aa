import Foundation

/// Why a fetch failed. Each case has a stable wire `code` and a `message` for people; no
/// payload ever holds a URL's credentials (URLs are kept only as `SourceURL.redacted`).
public enum FetchError: Error, Sendable, Equatable {
    /// `file://`, `ftp://`, anything but http and https (the payload is the scheme).
    case schemeRefused(String)
    /// The text is no URL libcurl can fetch (the payload is the redacted text).
    case invalidURL(String)
    /// A 4xx or 5xx answer, or a 3xx with nowhere to go, after the redirects were followed.
    case httpStatus(Int)
    /// The `Content-Length` was above the limit, or the body passed it.
    case tooLarge(limit: Int)
    /// The connection, or the whole transfer, took longer than its timeout.
    case timedOut
    /// No byte arrived for this long.
    case stalled(seconds: Int)
    /// More redirects than the request allows.
    case redirectLoop
    /// A redirect to another host or port than the URL named, not allowed by the request (the
    /// payloads are the redirecting and the target URL, redacted).
    case crossHostRedirect(from: String, to: String)
    /// The host could not be reached or the connection broke (the payload says how).
    case connectionFailed(String)
    /// The server closed the connection before the whole body came.
    case cutOff(received: Int, expected: Int?)
    /// The progress callback asked to stop.
    case cancelled
    /// The body could not be written to its destination file.
    case writeFailed(String)
    /// A resumed transfer's rest came from another version of the file (its `ETag` is not the
    /// one the transfer began with): the part held is of no use.
    case changedWhileResuming

    public var code: String {
        switch self {
        case .schemeRefused: "fetch_scheme_refused"
        case .invalidURL: "fetch_invalid_url"
        case .httpStatus: "fetch_http_status"
        case .tooLarge: "fetch_too_large"
        case .timedOut: "fetch_timed_out"
        case .stalled: "fetch_stalled"
        case .redirectLoop: "fetch_redirect_loop"
        case .crossHostRedirect: "fetch_cross_host_redirect"
        case .connectionFailed: "fetch_connection_failed"
        case .cutOff: "fetch_cut_off"
        case .cancelled: "fetch_cancelled"
        case .writeFailed: "fetch_write_failed"
        case .changedWhileResuming: "fetch_changed_while_resuming"
        }
    }

    public var message: String {
        switch self {
        case .schemeRefused("file"):
            "the scheme \"file\" is refused: file:// is not supported, give the file's path instead (only http:// and https:// URLs are fetched)"
        case .schemeRefused(let scheme):
            "the scheme \"\(scheme)\" is refused: only http:// and https:// URLs are fetched (give a local file as a path)"
        case .invalidURL(let text):
            "\(text) is not a valid http(s) URL"
        case .httpStatus(let status):
            "the server answered HTTP \(status)"
        case .tooLarge(let limit):
            "the download is larger than its limit of \(limit) bytes"
        case .timedOut:
            "the server did not answer in time"
        case .stalled(let seconds):
            "the transfer made no progress for \(seconds) s"
        case .redirectLoop:
            "too many redirects (a redirect loop)"
        case .crossHostRedirect(let from, let to):
            "the source at \(from) redirects to \(to), another host; allow it with --allow-cross-host-redirects / config key allow_cross_host_redirects"
        case .connectionFailed(let reason):
            "the connection failed: \(reason)"
        case .cutOff(let received, let expected):
            if let expected {
                "the transfer was cut off after \(received) of \(expected) bytes"
            } else {
                "the transfer was cut off after \(received) bytes"
            }
        case .cancelled:
            "the transfer was cancelled"
        case .writeFailed(let reason):
            "the download could not be written: \(reason)"
        case .changedWhileResuming:
            "the file changed on the server since the interrupted transfer began (another ETag): it is fetched whole again"
        }
    }
}
