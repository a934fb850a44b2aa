/// What a map picture is written as.
public enum MapImageFormat: String, Sendable, CaseIterable {
    case png, svg

    public var mediaType: String {
        switch self {
        case .png: "image/png"
        case .svg: "image/svg+xml"
        }
    }
}
