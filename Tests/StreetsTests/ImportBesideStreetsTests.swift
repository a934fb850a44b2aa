import Foundation
import Glibc
import Planner
@testable import Streets
import Synchronization
import XCTest

/// Issue 26: an import runs planetsplitter, the place index and its additional steps at once;
/// a step waits for the streets only where it needs them, and the first part to fail stops the
/// others and names itself.
final class ImportBesideStreetsTests: XCTestCase {
    /// A stand-in for planetsplitter: a script that runs `before` (shell), then the real one.
    private func planetsplitter(in directory: URL, before: String) throws -> URL {
        let real = try RegionImporter.findPlanetsplitter().path
        let script = directory.appendingPathComponent("planetsplitter")
        try Data("#!/bin/sh\n\(before)\nexec '\(real)' \"$@\"\n".utf8).write(to: script)
        XCTAssertEqual(chmod(script.path, 0o755), 0)
        return script
    }

    /// Shell that waits (at most a minute, so an import that never starts the step fails instead
    /// of hanging) for `file`, else says `message` on stderr and exits 3.
    private func waitFor(_ file: URL, or message: String) -> String {
        """
        i=0
        while [ ! -e '\(file.path)' ]; do
          i=$((i+1)); if [ $i -gt 600 ]; then echo '\(message)' >&2; exit 3; fi
          sleep 0.1
        done
        """
    }

    func testAStepStartsWhilePlanetsplitterRunsAndFindsEachPartOfTheStreetsBuiltWhenItWaitsForIt() throws {
        let work = try TampereFixture.temporaryDirectory("beside", removedAfter: self)
        let started = work.appendingPathComponent("step-started")
        var importer = RegionImporter(dataDirectory: work.appendingPathComponent("data"))
        // planetsplitter cannot finish before the step has started: the two run at once.
        importer.planetsplitter = try planetsplitter(in: work, before: waitFor(started, or: "the step never started beside planetsplitter"))
        let seen = Mutex<[String]>([])
        let step = RegionImportStep(name: "transit timetable", besideStreets: { staging, streets, progress in
            try Data().write(to: started)
            try streets.waitForRoutingDatabase()
            let routing = FileManager.default.fileExists(atPath: staging.appendingPathComponent("nodes.mem").path)
            seen.withLock { $0.append("routing database: \(routing ? "there" : "missing")") }
            try streets.waitForPlaceIndex()
            let places = FileManager.default.fileExists(atPath: staging.appendingPathComponent(PlaceIndex.fileName).path)
            seen.withLock { $0.append("place index: \(places ? "there" : "missing")") }
            try PlaceIndex.addStops([IndexedStop(id: "0001", name: "Keskustori", coordinate: TampereFixture.keskustori,
                                                 modes: ["tram"])], toRegionDirectory: staging)
            progress(RegionImportProgress(phase: "transit timetable", fraction: 0.5, detail: "stops"))
            return RegionImportStep.Outcome(providesTransit: true)
        })
        let overall = Mutex<[Double]>([])
        let result = try importer.importRegion(name: "tampere", osm: TampereFixture.osmFile, additionalSteps: [step]) { update in
            if let value = update.overall { overall.withLock { $0.append(value) } }
        }
        XCTAssertEqual(seen.withLock { $0 }, ["routing database: there", "place index: there"])
        XCTAssertEqual(result.manifest.counts["stops"], 1)
        XCTAssertGreaterThan(result.manifest.counts["routing_segments"] ?? 0, 0)
        XCTAssertGreaterThan(result.manifest.counts["streets"] ?? 0, 0)
        let fractions = overall.withLock { $0 }
        XCTAssertEqual(fractions, fractions.sorted(), "the overall fraction only grows while the parts interleave")
        XCTAssertEqual(fractions.last, 1)
    }

    func testAFailingStepStopsPlanetsplitterAndTheImportNamesTheStep() throws {
        let work = try TampereFixture.temporaryDirectory("step-fails", removedAfter: self)
        let pidFile = work.appendingPathComponent("planetsplitter.pid")
        let data = work.appendingPathComponent("data")
        var importer = RegionImporter(dataDirectory: data)
        // Writes its pid, then holds on until the step has failed (the import must kill it).
        importer.planetsplitter = try planetsplitter(in: work, before: "echo $$ > '\(pidFile.path)'.tmp && mv '\(pidFile.path)'.tmp '\(pidFile.path)'\n"
            + waitFor(work.appendingPathComponent("never"), or: "nobody stopped planetsplitter"))
        let step = RegionImportStep(name: "transit timetable", besideStreets: { _, _, _ in
            for _ in 0..<600 where !FileManager.default.fileExists(atPath: pidFile.path) { usleep(100_000) }
            throw CocoaError(.fileReadCorruptFile)
        })
        XCTAssertThrowsError(try importer.importRegion(name: "tampere", osm: TampereFixture.osmFile, additionalSteps: [step]) { _ in }) {
            error in
            guard case .importFailed(let phase, _) = error as? StreetsError else { return XCTFail("\(error)") }
            XCTAssertEqual(phase, "transit timetable", "the step that failed, not planetsplitter that it stopped")
        }
        let pid = try XCTUnwrap(pid_t(String(decoding: try Data(contentsOf: pidFile), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        let alive = kill(pid, 0), reason = errno // read before any assertion can change errno
        XCTAssertEqual(alive, -1, "planetsplitter was killed and reaped")
        XCTAssertEqual(reason, ESRCH)
        XCTAssertEqual(try RegionCatalog(dataDirectory: data).regions(), [])
        let left = (try? FileManager.default.contentsOfDirectory(atPath: RegionCatalog(dataDirectory: data).regionsDirectory.path)) ?? []
        XCTAssertTrue(left.allSatisfy { $0.hasSuffix(".lock") }, "the staging version was removed: \(left)")
    }

    func testACancelledImportStopsThePlaceIndexPassHalfWayInsteadOfReadingTheWholeFile() throws {
        let work = try TampereFixture.temporaryDirectory("places-stop", removedAfter: self)
        var importer = RegionImporter(dataDirectory: work.appendingPathComponent("data"))
        // planetsplitter holds on (the cancel kills it), so the place pass is what is left to stop.
        importer.planetsplitter = try planetsplitter(in: work, before: waitFor(work.appendingPathComponent("never"), or: "nobody stopped planetsplitter"))
        // Cancelled from the place pass's own progress, once it has read its first 100,000 nodes
        // (Tampere's file has about 164,000 and 30,000 ways): the next check must stop it.
        let cancelled = Mutex(false)
        importer.isCancelled = { cancelled.withLock { $0 } }
        let seen = Mutex<[RegionImportProgress]>([])
        XCTAssertThrowsError(try importer.importRegion(name: "tampere", osm: TampereFixture.osmFile) { progress in
            seen.withLock { $0.append(progress) }
            if progress.phase == "indexing places", progress.detail.hasSuffix("ways") { cancelled.withLock { $0 = true } }
        }) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        let places = seen.withLock { $0 }.filter { $0.phase == "indexing places" }
        XCTAssertTrue(places.contains { $0.detail.hasSuffix("ways") }, "the place pass had started: \(places)")
        XCTAssertFalse(places.contains { $0.fraction == 1 }, "the place pass stopped before the end of the file: \(places)")
    }

    func testPlanetsplitterFailingReleasesAStepWaitingForTheStreetsAndTheImportNamesPlanetsplitter() throws {
        let work = try TampereFixture.temporaryDirectory("routing-fails", removedAfter: self)
        var importer = RegionImporter(dataDirectory: work.appendingPathComponent("data"))
        // planetsplitter fails only once the step waits for the streets: failing sooner, it would
        // stop the import before the step starts (a loaded machine did), and nothing would wait.
        let waiting = work.appendingPathComponent("step-waiting")
        importer.planetsplitter = try planetsplitter(in: work, before: waitFor(waiting, or: "the step never started")
                                                     + "\necho 'no room for the nodes' >&2; exit 1")
        let waited = Mutex<String?>(nil)
        let step = RegionImportStep(name: "transit timetable", besideStreets: { _, streets, _ in
            _ = FileManager.default.createFile(atPath: waiting.path, contents: nil)
            do {
                try streets.waitForRoutingDatabase()
                waited.withLock { $0 = "built" }
            } catch {
                waited.withLock { $0 = "\(error)" }
                throw error
            }
            return RegionImportStep.Outcome()
        })
        XCTAssertThrowsError(try importer.importRegion(name: "tampere", osm: TampereFixture.osmFile, additionalSteps: [step]) { _ in }) {
            error in
            guard case .importFailed(let phase, let message) = error as? StreetsError else { return XCTFail("\(error)") }
            XCTAssertEqual(phase, "building routing database")
            XCTAssertTrue(message.contains("no room for the nodes"), message)
        }
        XCTAssertEqual(waited.withLock { $0 }, "the routing database of the new region version was not built")
    }

    func testTheOverallFractionAddsTheSharesOfPhasesRunningAtOnce() {
        let phases = RegionImportPhases(steps: ["transit timetable"])
        var seen: [Double] = []
        for update in [RegionImportProgress(phase: "checking sources", fraction: 1),
                       RegionImportProgress(phase: "building routing database", fraction: 0.3),
                       RegionImportProgress(phase: "transit timetable", fraction: 0.5),
                       RegionImportProgress(phase: "indexing places", detail: "164264 nodes"),
                       RegionImportProgress(phase: "building routing database", fraction: 0.1),
                       RegionImportProgress(phase: "indexing places", fraction: 1),
                       RegionImportProgress(phase: "building routing database", fraction: 1),
                       RegionImportProgress(phase: "transit timetable", fraction: 1),
                       RegionImportProgress(phase: "time zone", fraction: 1),
                       RegionImportProgress(phase: "switching", fraction: 1)] {
            phases.report(update) { seen.append($0.overall ?? -1) }
        }
        XCTAssertEqual(seen, seen.sorted(), "an earlier fraction of a phase never takes the sum back: \(seen)")
        XCTAssertEqual(seen.last, 1)
        XCTAssertEqual(seen[2] - seen[1], 0.35 * 0.5, accuracy: 1e-6, "the step's share (0.35) times its half")
        var unknown: Double?? = .none
        phases.report(RegionImportProgress(phase: "keeping the streets", fraction: 0.5)) { unknown = .some($0.overall) }
        XCTAssertEqual(unknown, .some(nil), "a phase of no share has no overall figure")
    }
}
