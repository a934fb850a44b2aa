import Daemon
import Foundation
import Glibc
import Streets
import Synchronization
import Transit

/// `usefulmap-bench import [--runs=N]`: the whole Tampere region import as the daemon runs it
/// (planetsplitter, the place index and the timetable step at once, footpaths timed by Routino
/// workers), in this process, N times (5 by default), with the moments its critical path passes
/// (from the import's progress), and the CPU of its child processes (planetsplitter and the
/// Routino workers); then the timetable step alone on the imported streets, whose child CPU is
/// the workers' alone. Wall times scatter on a shared machine; the CPU figures do not.
func runImportSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "import")
    let runs = max(1, Int(CommandLine.arguments.first { $0.hasPrefix("--runs=") }?.dropFirst("--runs=".count) ?? "") ?? 5)
    let tampere = sharedDirectory().appendingPathComponent("data/tampere")
    let osm = tampere.appendingPathComponent("tampere.osm.pbf"), feed = tampere.appendingPathComponent("tampere.zip")
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let dataDirectory = try benchDataDirectory("import")
    defer { try? FileManager.default.removeItem(at: dataDirectory) }

    var figures: [String: [Double]] = [:]
    var order: [String] = []
    func record(_ name: String, _ value: Double) {
        if figures[name] == nil { order.append(name) }
        figures[name, default: []].append(value)
    }
    for run in 0..<runs {
        let timeline = ImportTimeline()
        let children = childrenCPUSeconds(), own = ownCPUSeconds()
        let (result, seconds) = try time {
            try RegionImporter(dataDirectory: dataDirectory).importRegion(
                name: "tampere", osm: osm, additionalSteps: [TransitEngine.importStep(feeds: [feed], walkWorkers: cores)],
                force: run > 0) { timeline.note($0) }
        }
        record("whole import, wall", seconds)
        usleep(300_000) // the workers are reaped by their pool's threads just after the import returns
        for (moment, at) in timeline.moments() { record("— \(moment), at", at) }
        record("child processes' CPU (planetsplitter + Routino workers)", childrenCPUSeconds() - children)
        record("this process's CPU (place index, feed, daemon side)", ownCPUSeconds() - own)
        if run == 0 {
            report.notes["counts"] = "\(result.manifest.counts["stops"] ?? 0) stops indexed, "
                + "\(result.manifest.counts[TransitEngine.straightLineFootpaths] ?? 0) straight-line footpaths"
        }
    }
    for name in order {
        let values = figures[name] ?? []
        report.add("\(name), p50 of \(values.count)", percentile(values.sorted(), 0.5), unit: "s")
        report.notes[name] = values.map { String(format: "%.2f", $0) }.joined(separator: ", ")
    }

    // The timetable step alone on the streets just built: its children are the Routino workers only.
    let region = RegionCatalog(dataDirectory: dataDirectory).directory(of: "tampere").resolvingSymlinksInPath()
    var stepWall: [Double] = [], workersCPU: [Double] = []
    for _ in 0..<runs {
        let children = childrenCPUSeconds()
        stepWall.append(try time {
            try TransitEngine.importStep(feeds: [feed], walkWorkers: cores).run(stagingDirectory: region) { _ in }
        }.1)
        usleep(300_000)
        workersCPU.append(childrenCPUSeconds() - children)
    }
    report.add("timetable step alone (\(cores) workers), wall p50 of \(runs)", percentile(stepWall.sorted(), 0.5), unit: "s")
    report.add("timetable step alone, Routino workers' CPU p50 of \(runs)", percentile(workersCPU.sorted(), 0.5), unit: "s")
    report.notes["timetable step alone, wall"] = stepWall.map { String(format: "%.2f", $0) }.joined(separator: ", ")
    report.notes["timetable step alone, workers' CPU"] = workersCPU.map { String(format: "%.2f", $0) }.joined(separator: ", ")
    if let gtfs = try GTFSImporter.lastReport(regionDirectory: region) {
        report.notes["footpaths"] = "\(gtfs.footpaths) footpaths: \(gtfs.streetTimedFootpaths) timed on the streets, "
            + "\(gtfs.straightLineFootpaths) straight-line"
    }
    var load = [Double](repeating: 0, count: 3)
    if getloadavg(&load, 3) == 3 { report.notes["load average at the end"] = String(format: "%.1f %.1f %.1f", load[0], load[1], load[2]) }
    return report
}

/// Seconds since the import started at which it passed each moment of its critical path,
/// read from its progress reports (the first report of each).
private final class ImportTimeline: Sendable {
    private let start = DispatchTime.now().uptimeNanoseconds
    private let seen = Mutex<[(String, Double)]>([])

    /// The moments, by the progress report that marks each.
    private static let marks: [(name: String, matches: @Sendable (RegionImportProgress) -> Bool)] = [
        ("places indexed", { $0.phase == "indexing places" && $0.fraction == 1 }),
        ("routing database built (planetsplitter)", { $0.phase == "building routing database" && $0.fraction == 1 }),
        ("footpaths being timed", { $0.phase == "transit timetable" && $0.detail.hasPrefix("timing footpaths on the streets:") }),
        ("footpaths timed, timetable written", { $0.phase == "transit timetable" && $0.detail == "indexing stops" }),
        ("timetable step done", { $0.phase == "transit timetable" && $0.fraction == 1 }),
        ("live", { $0.phase == "switching" && $0.fraction == 1 }),
    ]

    func note(_ progress: RegionImportProgress) {
        let at = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        seen.withLock { seen in
            for mark in Self.marks where mark.matches(progress) && !seen.contains(where: { $0.0 == mark.name }) {
                seen.append((mark.name, at))
            }
        }
    }

    /// In the order of `marks`.
    func moments() -> [(String, Double)] {
        let seen = self.seen.withLock { $0 }
        return Self.marks.compactMap { mark in seen.first { $0.0 == mark.name } }
    }
}

/// User + system seconds of this process's reaped children.
private func childrenCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    return seconds(usage)
}

/// User + system seconds of this process.
private func ownCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return seconds(usage)
}

private func seconds(_ usage: rusage) -> Double {
    Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
