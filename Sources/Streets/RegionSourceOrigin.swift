import Foundation

/// Where a source fetched by URL came from, recorded in the manifest so the next check can ask
/// the server whether it changed. The URL is kept whole, credentials included, only here (the
/// manifest is readable by its owner alone); everything shown or logged uses it redacted.
public struct RegionSourceOrigin: Codable, Hashable, Sendable {
    public var url: String
    /// The server's validators of the fetched copy, sent back as `If-None-Match` and
    /// `If-Modified-Since`; nil when the server sent none (then the copy is compared by sha256).
    public var etag: String?
    public var lastModified: String?
    public var fetchedAt: Date

    public init(url: String, etag: String?, lastModified: String?, fetchedAt: Date) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
    }
}
