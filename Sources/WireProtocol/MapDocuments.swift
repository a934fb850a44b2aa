/// `plan.export`: the file's text, for the client to write as it is.
public struct ExportDocument: Hashable, Sendable, Codable {
    public var id: Int64
    /// `geojson` or `gpx`.
    public var format: String
    public var mediaType: String
    public var content: String

    public init(id: Int64, format: String, mediaType: String, content: String) {
        self.id = id
        self.format = format
        self.mediaType = mediaType
        self.content = content
    }

    enum CodingKeys: String, CodingKey {
        case id, format, content
        case mediaType = "media_type"
    }
}

/// A map picture: the image file's bytes in base64 (RFC 4648), for the client to write.
public struct MapImageDocument: Hashable, Sendable, Codable {
    /// `png` or `svg`.
    public var format: String
    public var mediaType: String
    public var width: Int
    public var height: Int
    public var data: String
    /// Milliseconds the daemon spent drawing.
    public var renderMs: Double

    public init(format: String, mediaType: String, width: Int, height: Int, data: String, renderMs: Double) {
        self.format = format
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.data = data
        self.renderMs = renderMs
    }

    enum CodingKeys: String, CodingKey {
        case format, width, height, data
        case mediaType = "media_type"
        case renderMs = "render_ms"
    }
}

/// `compare.map`: the comparison as `compare` returns it, and its picture.
public struct CompareMapDocument: Hashable, Sendable, Codable {
    public var comparison: CompareDocument
    public var map: MapImageDocument

    public init(comparison: CompareDocument, map: MapImageDocument) {
        self.comparison = comparison
        self.map = map
    }
}
