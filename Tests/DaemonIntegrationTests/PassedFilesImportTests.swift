import Foundation
import WireProtocol
import XCTest

/// Issue 16: imports through the sandboxed unit work from any file the user can read. umctl
/// passes the files open (SCM_RIGHTS), so PrivateTmp and ProtectHome can stay.
final class PassedFilesImportTests: XCTestCase {
    /// The daemon's folders of links to passed files (`PassedImportSources.folderPrefix`).
    enum PassedFolder { static let prefix = ".passed-files-" }

    /// A small Tokyo region's `tokyo.osm` and `tokyo.zip`, written into `directory`.
    @discardableResult
    func writeTokyo(in directory: URL) throws -> (osm: URL, feed: URL) {
        var region = SmallRegion(name: "tokyo", latitude: 35.6812, longitude: 139.7671)
        region.size = 3
        let line = SmallRegion.Line(zone: "Asia/Tokyo", fromStop: "Kanda Gate", toStop: "Marunouchi Square",
                                    departure: "08:00:00", minutes: 5, dates: ("20260101", "20261231"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (try region.writeOSM(in: directory), try region.writeFeed(line, in: directory))
    }

    func testAnImportReadsFilesThatOnlyTheClientsMountNamespaceCanSee() async throws {
        let harness = try startDaemon()
        let sources = harness.directory.appendingPathComponent("sources")
        try writeTokyo(in: sources)
        // Like the unit's PrivateTmp: the client's namespace has its own tmpfs over `private`,
        // holding the files; the daemon's `private` is an empty folder.
        let hidden = harness.directory.appendingPathComponent("private")
        try FileManager.default.createDirectory(at: hidden, withIntermediateDirectories: true)
        let osm = hidden.appendingPathComponent("tokyo.osm").path, feed = hidden.appendingPathComponent("tokyo.zip").path
        let script = "mount -t tmpfs tmpfs '\(hidden.path)' && cp '\(sources.path)'/tokyo.osm '\(sources.path)'/tokyo.zip '\(hidden.path)'/ "
            + "&& exec '\(DaemonHarness.umctl)' region import tokyo --osm '\(osm)' --gtfs '\(feed)' --socket '\(harness.socketPath)'"
        let probe = try DaemonHarness.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "true"], in: harness.directory)
        guard probe.status == 0 else {
            throw XCTSkip("needs a mount namespace of its own (unshare --mount, as root): \(probe.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: osm), "the daemon's namespace cannot see the files")

        // By path alone (what umctl sent before), the daemon cannot open them.
        await XCTAssertThrowsErrorAsync(try await harness.client().call(Endpoints.regionImport, Params.RegionImport(name: "tokyo", osm: osm, gtfs: [feed]))) {
            XCTAssertEqual(($0 as? WireError)?.code, "source_not_found", "\($0)")
        }
        let imported = try DaemonHarness.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "sh", "-c", script],
                                             in: harness.directory)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.contains("imported region tokyo"), imported.stdout)
        let listed = try XCTUnwrap(try harness.json(["region", "list"])["regions"]?.arrayValue?.first)
        XCTAssertEqual(listed["transit_feeds"]?.arrayValue?.first?["feed"]?.stringValue, "tokyo.zip")
        // The region records the paths the user gave, and the daemon kept no link or file open.
        let manifest = try String(contentsOf: harness.dataDirectory.appendingPathComponent("regions/tokyo/manifest.json"), encoding: .utf8)
        XCTAssertTrue(manifest.contains(osm.replacingOccurrences(of: "/", with: "\\/")) || manifest.contains(osm), manifest)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: harness.dataDirectory.path).filter { $0.hasPrefix(".passed-files") }
        XCTAssertEqual(leftovers, [])
        let pid = try XCTUnwrap(harness.process?.processIdentifier)
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")
        }
        XCTAssertFalse(open.contains { $0.hasSuffix("tokyo.osm") || $0.hasSuffix("tokyo.zip") }, "passed files are closed: \(open)")
    }

    /// Issue 28 item 9: an error about a file the user passed names the user's path, never the
    /// link in the daemon's folder it was read through.
    func testAnImportErrorNamesTheUsersPathNotTheDaemonsTemporaryOne() throws {
        let harness = try startDaemon()
        let sources = harness.directory.appendingPathComponent("sources")
        let (osm, _) = try writeTokyo(in: sources)
        let broken = sources.appendingPathComponent("broken-feed.zip")
        try Data("this is not a zip archive\n".utf8).write(to: broken)
        let result = try harness.umctl(["region", "import", "tokyo", "--osm", osm.path, "--gtfs", broken.path])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stderr.contains(broken.path), result.stderr)
        XCTAssertFalse(result.stderr.contains(PassedFolder.prefix), result.stderr.debugDescription)
        XCTAssertFalse(result.stderr.contains("/proc/"), result.stderr.debugDescription)
    }

    /// `umctl region import x --osm <(zcat x.osm.gz)`: a pipe can be read only once and its name
    /// (`/dev/fd/63`) says nothing of its format; the daemon copies it and reads its content.
    func testAnImportReadsItsSourcesFromPipesWhoseNamesHaveNoExtension() throws {
        let harness = try startDaemon()
        let (osm, feed) = try writeTokyo(in: harness.directory.appendingPathComponent("sources"))
        let osmPipe = harness.directory.appendingPathComponent("streets").path, feedPipe = harness.directory.appendingPathComponent("timetable").path
        XCTAssertEqual(mkfifo(osmPipe, 0o600), 0)
        XCTAssertEqual(mkfifo(feedPipe, 0o600), 0)
        let script = "cat '\(osm.path)' > '\(osmPipe)' & cat '\(feed.path)' > '\(feedPipe)' & "
            + "'\(DaemonHarness.umctl)' region import tokyo --osm '\(osmPipe)' --gtfs '\(feedPipe)' --socket '\(harness.socketPath)'; "
            + "status=$?; wait; exit $status"
        let imported = try DaemonHarness.run("/bin/sh", ["-c", script], in: harness.directory)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.contains("imported region tokyo"), imported.stdout)
        XCTAssertTrue(imported.stdout.contains("time zone Asia/Tokyo"), "the feed was read: \(imported.stdout)")
        let found = try harness.json(["search", "Kanda Gate", "--region", "tokyo"])["results"]?.arrayValue ?? []
        XCTAssertFalse(found.isEmpty, "the streets and stops were read")
        XCTAssertEqual(try passedFolders(harness), [], "the copies are removed")

        // The feed came through a pipe: a re-import without --gtfs cannot read it again and says so.
        let again = try harness.umctl(["region", "import", "tokyo", "--osm", osm.path, "--force"])
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertTrue(again.stderr.contains("\(feedPipe) is not a regular file (a pipe is read only once)")
                      && again.stderr.contains("pass --gtfs FILE"), again.stderr)

        // Something that is neither XML nor PBF is refused, naming the path the user gave.
        let script2 = "echo 'not a map' > '\(osmPipe)' & "
            + "'\(DaemonHarness.umctl)' region import other --osm '\(osmPipe)' --socket '\(harness.socketPath)'; status=$?; wait; exit $status"
        let refused = try DaemonHarness.run("/bin/sh", ["-c", script2], in: harness.directory)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("unsupported OSM file \(osmPipe)"),
                      refused.stderr)
        XCTAssertFalse(refused.stderr.contains(harness.dataDirectory.path), "no path of the daemon's own: \(refused.stderr)")
    }

    func passedFolders(_ harness: DaemonHarness) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: harness.dataDirectory.path).filter { $0.hasPrefix(".passed-files") }
    }

    /// A refused request never reads its pipe: the checks come before the copy, so the writer
    /// of 200 MB finds its pipe closed rather than drained.
    func testARefusedImportDoesNotCopyItsPipeFirst() throws {
        let harness = try startDaemon()
        let pipe = harness.directory.appendingPathComponent("zeros").path
        XCTAssertEqual(mkfifo(pipe, 0o600), 0)
        let writerStatus = harness.directory.appendingPathComponent("writer-status").path
        let script = "(head -c 200000000 /dev/zero > '\(pipe)'; echo $? > '\(writerStatus)') & "
            + "'\(DaemonHarness.umctl)' region import 'Not A Name' --osm '\(pipe)' --socket '\(harness.socketPath)'; status=$?; wait; exit $status"
        let refused = try DaemonHarness.run("/bin/sh", ["-c", script], in: harness.directory)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("invalid region name \"Not A Name\""), refused.stderr)
        let written = try String(contentsOfFile: writerStatus, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotEqual(written, "0", "the writer was cut off (SIGPIPE), not read to its end")
        XCTAssertEqual(try passedFolders(harness), [])
    }

    /// A client that goes away while its pipe is copied stops the copy; the copy is removed.
    /// What a killed daemon left behind is removed when it starts again.
    func testACopyStopsWhenItsClientGoesAndLeftoversGoAtStartUp() throws {
        let harness = try makeDaemon()
        let leftover = harness.dataDirectory.appendingPathComponent(".passed-files-0dead000/0")
        try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: true)
        try Data(count: 4096).write(to: leftover.appendingPathComponent("spooled"))
        try harness.start()
        defer { XCTAssertEqual(harness.stop(), 0) }
        XCTAssertEqual(try passedFolders(harness), [], "a killed import's copy is removed at start-up")

        let pipe = harness.directory.appendingPathComponent("slow").path
        XCTAssertEqual(mkfifo(pipe, 0o600), 0)
        // A writer that sends a little, then stays silent for a minute.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "(echo '<osm>'; sleep 60) > '\(pipe)'"]
        try writer.run()
        defer { writer.terminate() }
        let client = Process()
        client.executableURL = URL(fileURLWithPath: DaemonHarness.umctl)
        client.arguments = ["region", "import", "slow", "--osm", pipe, "--socket", harness.socketPath]
        client.standardOutput = FileHandle.nullDevice
        client.standardError = FileHandle.nullDevice
        try client.run()
        for _ in 0..<200 where try passedFolders(harness).isEmpty { usleep(25_000) }
        XCTAssertEqual(try passedFolders(harness).count, 1, "the copy is under way")
        client.terminate()
        client.waitUntilExit()
        for _ in 0..<400 where try !passedFolders(harness).isEmpty { usleep(25_000) }
        XCTAssertEqual(try passedFolders(harness), [], "the copy stopped and was removed while its writer still sleeps")
        XCTAssertEqual(try harness.json(["status"])["regions"]?.arrayValue?.count, 0, "and the daemon serves")
    }
    /// Issue 25 item 11: the daemon reads a passed file through its own link, which opens it
    /// anew; a file the client opened for writing only, or as a path only, is refused, named.
    func testAPassedFileNotOpenForReadingIsRefusedNamingIt() async throws {
        let harness = try startDaemon()
        let (osm, _) = try writeTokyo(in: harness.directory.appendingPathComponent("sources"))
        let pathOnly: Int32 = 0o10_000_000  // O_PATH, which Glibc's module leaves out
        for (flags, said) in [(O_WRONLY, "open for writing only (O_WRONLY)"), (pathOnly, "as a path only (O_PATH)")] {
            let descriptor = open(osm.path, flags | O_CLOEXEC)
            XCTAssertGreaterThanOrEqual(descriptor, 0, String(cString: strerror(errno)))
            defer { close(descriptor) }
            let params = try JSONValue(encoding: Params.RegionImport(name: "tokyo", osm: osm.path, gtfs: [], passedFiles: true))
            await XCTAssertThrowsErrorAsync(try await harness.client().call(Endpoints.regionImport.method.rawValue, params: params, passing: [descriptor])) {
                XCTAssertEqual(($0 as? WireError)?.code, "invalid_params", "\($0)")
                XCTAssertTrue("\($0)".contains("\(osm.path) was passed \(said)"), "\($0)")
            }
        }
        XCTAssertEqual(try harness.json(["region", "list"])["regions"]?.arrayValue?.count, 0, "nothing was imported")
        XCTAssertEqual(try passedFolders(harness), [])
    }
}
