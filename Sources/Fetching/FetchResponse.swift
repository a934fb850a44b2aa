import Foundation

/// What a successful fetch got: the final status after redirects, the validators to send
/// next time, and the body (in memory, or its size when it went to a file).
public struct FetchResponse: Sendable {
    public var status: Int
    /// The server answered 304: the copy held is current, and nothing was transferred.
    public var notModified: Bool
    /// The body, for a `.memory` destination only.
    public var body: Data?
    /// The size of the whole body at the destination (resumed bytes included).
    public var bytes: Int
    public var etag: String?
    public var lastModified: String?
    public var contentType: String?
    /// The server continued an interrupted transfer (206) rather than sending it all again.
    public var resumed: Bool

    public init(status: Int, notModified: Bool, body: Data?, bytes: Int, etag: String?, lastModified: String?,
                contentType: String?, resumed: Bool) {
        self.status = status
        self.notModified = notModified
        self.body = body
        self.bytes = bytes
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.resumed = resumed
    }
}
