extension Params {
    /// `plan.show`: `geometry` adds each leg's, ride's and walk's line, simplified to
    /// `tolerance_m` metres (default 5; 0 sends every point).
    public struct PlanShow: Hashable, Sendable, Codable {
        public var id: Int64
        public var geometry: Bool?
        public var toleranceM: Double?
        public init(id: Int64, geometry: Bool? = nil, toleranceM: Double? = nil) {
            self.id = id
            self.geometry = geometry
            self.toleranceM = toleranceM
        }
    }

    /// `plan.export`.
    public struct PlanExport: Hashable, Sendable, Codable {
        public var id: Int64
        public var format: WireExportFormat
        public var toleranceM: Double?
        public init(id: Int64, format: WireExportFormat, toleranceM: Double? = nil) {
            self.id = id
            self.format = format
            self.toleranceM = toleranceM
        }
    }

    /// A picture (`plan.map`, `compare`'s `map`): `format` default png, size in pixels (default 800×600).
    public struct MapPicture: Hashable, Sendable, Codable {
        public var format: WirePictureFormat?
        public var width: Int?
        public var height: Int?
        public init(format: WirePictureFormat? = nil, width: Int? = nil, height: Int? = nil) {
            self.format = format
            self.width = width
            self.height = height
        }
    }

    /// `plan.map`: the plan and its picture's params side by side in one object.
    public struct PlanMap: Hashable, Sendable, Codable {
        public var id: Int64
        public var picture: MapPicture
        public init(id: Int64, picture: MapPicture = MapPicture()) {
            self.id = id
            self.picture = picture
        }
        enum CodingKeys: CodingKey { case id }
        public init(from decoder: Decoder) throws {
            id = try decoder.container(keyedBy: CodingKeys.self).decode(Int64.self, forKey: .id)
            picture = try MapPicture(from: decoder)
        }
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try picture.encode(to: encoder)
        }
    }
}
