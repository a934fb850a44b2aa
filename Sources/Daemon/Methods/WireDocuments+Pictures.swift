import Foundation
import MapRendering
import Planner
import WireProtocol

// Pictures as the wire carries them (`plan.map`, `compare --map`): the drawing's bytes in base64.

extension RegionMapData {
    /// Draws `scene` on the streets around `coordinate` (`drawing`), as a `MapImageDocument`.
    /// - throws: `MapRenderingError`, `StreetsError.streetLayerUnreadable`, `CancellationError`.
    public func picture(_ scene: MapScene, near coordinate: Coordinate, _ request: MapPictureRequest) async throws -> MapImageDocument {
        let drawn = try await drawing(scene, near: coordinate, request)
        return MapImageDocument(format: WirePictureFormat(request.format), mediaType: request.format.mediaType,
                                width: request.width, height: request.height, data: drawn.bytes.base64EncodedString(),
                                renderMs: (drawn.milliseconds * 10).rounded() / 10)
    }
}

extension MapPictureRequest {
    /// - throws: `MapRenderingError.invalidSize` (the format was checked when the params were decoded).
    public init(_ params: Params.MapPicture) throws {
        try self.init(format: MapImageFormat(params.format), width: params.width, height: params.height)
    }
}
