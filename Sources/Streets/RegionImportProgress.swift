/// Where a running import is, for the person waiting: a phase and, when known, how far.
public struct RegionImportProgress: Hashable, Sendable, Codable {
    /// "checking sources", "building routing database", "indexing places", an additional
    /// step's name, or "switching".
    public var phase: String
    /// 0…1 within the phase, when the phase can tell.
    public var fraction: Double?
    /// Counts or the current sub-step ("Sort OSM Data", "164264 nodes, 29978 ways").
    public var detail: String
    /// 0…1 of the whole import (set by `RegionImporter`; only grows).
    public var overall: Double?

    public init(phase: String, fraction: Double? = nil, detail: String = "", overall: Double? = nil) {
        self.phase = phase
        self.fraction = fraction
        self.detail = detail
        self.overall = overall
    }
}
