import Fetching
import Foundation
import Streets

/// What a `region.import` will do, decided before any work: which feeds (a re-import without
/// `gtfs` keeps the current ones, `no_transit` drops them on purpose) and which zone (a zone
/// the user gave or set before is kept unless a new one is given). `notes` tell the user.
struct RegionImportRequest {
    var feeds: [URL]
    var timeZone: RegionTimeZoneDecision?
    var notes: [String] = []

    /// - throws: `DaemonError.invalidParams` for relative paths, `gtfs` with `no_transit`, or a kept feed that is gone.
    init(_ params: RegionImportOrder, current: RegionManifest?) throws {
        for path in [params.osm] + params.gtfs where !path.hasPrefix("/") && !SourceURL.isURL(path) {
            throw DaemonError.invalidParams("\(path) must be an absolute path (the daemon has its own working directory)")
        }
        let noTransit = params.noTransit
        if noTransit, !params.gtfs.isEmpty { throw DaemonError.invalidParams("give gtfs or no_transit, not both") }
        feeds = params.gtfs.map { URL(fileURLWithPath: $0) }
        if let current, current.hasTransit {
            let previous = current.sources.filter { $0.role != "osm" }.map(\.path)
            if noTransit {
                notes.append("transit removed on purpose (--no-transit); it had \(Self.names(previous))")
            } else if params.gtfs.isEmpty {
                for path in previous {
                    guard let problem = Self.whyNotReadableAgain(path) else { continue }
                    throw DaemonError.invalidParams(
                        "region \(current.name) keeps its feeds when imported without --gtfs, but \(path) \(problem): "
                            + "pass --gtfs FILE to replace it, or --no-transit to drop transit")
                }
                feeds = previous.map { URL(fileURLWithPath: $0) }
                notes.append("kept the current transit feeds \(Self.names(previous)) (pass --gtfs to replace them, --no-transit to drop them)")
            }
        }
        if let zone = params.timeZone {
            timeZone = RegionTimeZoneDecision(zone: zone, source: "given with --time-zone")
        } else if let current, let source = current.timeZoneSource,
                  source.hasPrefix("given") || source.hasPrefix("set") || source.hasPrefix("kept") {
            timeZone = RegionTimeZoneDecision(zone: current.timeZone, source: "kept from the previous import (\(source))")
            notes.append("kept the time zone \(current.timeZone) chosen before (pass --time-zone to change it)")
        }
    }

    /// Why a feed recorded by path can't be read again, or nil. A pipe (`--gtfs <(curl …)`,
    /// recorded as `/dev/fd/63`, or a named FIFO) was read once: in the daemon, that path names
    /// one of its own descriptors, or waits for a writer that never comes.
    static func whyNotReadableAgain(_ path: String) -> String? {
        if path.hasPrefix("/dev/fd/") || path.hasPrefix("/proc/") || path.hasPrefix("/dev/std") {
            return "was a pipe, which is read only once"
        }
        return switch RegionImporter.sourceProblem(path) {
        case .unreadable?: "is no longer readable"
        case .notARegularFile?: "is not a regular file (a pipe is read only once)"
        case nil: nil
        }
    }

    private static func names(_ paths: [String]) -> String {
        paths.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", ")
    }
}
