/// `plan.export`: the file's text, for the client to write as it is.
public struct ExportDocument: Hashable, Sendable, Codable {
    public var id: Int64
    /// `geojson`, `gpx` or `ics`.
    public var format: WireExportFormat
    public var mediaType: String
    public var content: String

    public init(id: Int64, format: WireExportFormat, mediaType: String, content: String) {
        self.id = id
        self.format = format
        self.mediaType = mediaType
        self.content = content
    }
}

/// A map picture: the image file's bytes in base64 (RFC 4648), for the client to write.
public struct MapImageDocument: Hashable, Sendable, Codable {
    /// `png` or `svg`.
    public var format: WirePictureFormat
    public var mediaType: String
    public var width: Int
    public var height: Int
    public var data: String
    /// Milliseconds the daemon spent drawing.
    public var renderMs: Double

    public init(format: WirePictureFormat, mediaType: String, width: Int, height: Int, data: String, renderMs: Double) {
        self.format = format
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.data = data
        self.renderMs = renderMs
    }
}
