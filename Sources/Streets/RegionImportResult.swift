/// What an import did.
public struct RegionImportResult: Hashable, Sendable, Codable {
    /// The region as it is now (the existing one when skipped).
    public var manifest: RegionManifest
    /// True when the sources were identical to the current version's and `force` was false.
    public var skipped: Bool

    public init(manifest: RegionManifest, skipped: Bool) {
        self.manifest = manifest
        self.skipped = skipped
    }
}
