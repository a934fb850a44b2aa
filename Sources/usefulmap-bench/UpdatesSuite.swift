import CZip
import Foundation
import Glibc
import HTTPTestSupport
import WireProtocol

/// Issue 22's speed: a region whose two sources are URLs on a loopback HTTP server
/// (LocalHTTPServer: Python's http.server with ETag, Last-Modified and 304).
/// - "nothing changed": `region.update` of Tampere when both sources answer 304 (≤ 50 ms);
/// - a GTFS-only update (a feed with new bytes) against a full import of the same sources.
func runUpdatesSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "updates")
    let tampere = sharedDirectory().appendingPathComponent("data/tampere")
    let served = FileManager.default.temporaryDirectory.appendingPathComponent("umbench-served-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: served) }
    for name in ["tampere.osm.pbf", "tampere.zip"] {
        try FileManager.default.copyItem(at: tampere.appendingPathComponent(name), to: served.appendingPathComponent(name))
    }
    let server = try LocalHTTPServer(directory: served)
    defer { server.stop() }
    let daemon = try BenchDaemon(arguments: ["--update-interval", "never"])
    defer { daemon.stop() }
    let client = try WireClient(socketPath: daemon.socketPath)

    let (_, importSeconds) = try await timeAsync {
        try await client.call(Endpoints.regionImport, Params.RegionImport(name: "tampere", osm: server.url("tampere.osm.pbf"),
                                                                    gtfs: [server.url("tampere.zip")]))
    }
    report.add("full import of Tampere by URL", importSeconds, unit: "s")

    var unchanged: [Double] = []
    for _ in 0..<30 {
        let (answer, seconds) = try await timeAsync { try await client.call(Endpoints.regionUpdate, Params.RegionUpdate(names: ["tampere"])) }
        guard answer.regions.first?.rebuilt == "nothing" else { throw BenchError("an unchanged update rebuilt: \(answer)") }
        unchanged.append(seconds)
    }
    report.addLatencies("update, nothing changed (2 URL sources, loopback)", unchanged)

    // New bytes, the same timetable: a note added to the zip.
    // With libzip in this process: a child process here left Foundation's waitUntilExit hanging.
    let note = strdup("reissued by usefulmap-bench\n")
    guard let archive = zip_open(served.appendingPathComponent("tampere.zip").path, 0, nil),
          let source = zip_source_buffer(archive, note, zip_uint64_t(strlen(note!)), 0),
          zip_file_add(archive, "bench-note.txt", source, zip_flags_t(ZIP_FL_OVERWRITE)) >= 0,
          zip_close(archive) == 0 else {
        free(note)
        throw BenchError("could not add a note to the served zip")
    }
    free(note)
    let (updated, updateSeconds) = try await timeAsync { try await client.call(Endpoints.regionUpdate, Params.RegionUpdate(names: ["tampere"])) }
    guard updated.regions.first?.rebuilt == "timetable" else { throw BenchError("the GTFS-only update rebuilt \(updated)") }
    report.add("GTFS-only update of Tampere (timetable rebuilt, streets kept)", updateSeconds, unit: "s")
    let (forced, forcedSeconds) = try await timeAsync {
        try await client.call(Endpoints.regionUpdate, Params.RegionUpdate(names: ["tampere"], force: true))
    }
    guard forced.regions.first?.rebuilt == "streets and timetable" else { throw BenchError("the forced update rebuilt \(forced)") }
    report.add("forced update of Tampere (full rebuild from the held copies)", forcedSeconds, unit: "s")
    return report
}
