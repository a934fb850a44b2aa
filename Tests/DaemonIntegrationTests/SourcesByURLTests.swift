import Foundation
import Glibc
import HTTPTestSupport
import WireProtocol
import XCTest

/// Issue 22, "Sources by URL" and its bad input: `region import` takes http(s) URLs, fetched
/// by the daemon from a real HTTP server on 127.0.0.1 (LocalHTTPServer); the manifest records
/// each URL and its validators; credentials are never shown or logged; every bad source is
/// refused with its own code and the region keeps serving what it had.
final class SourcesByURLTests: ServedTownTestCase {
    private func importTown(osm: String? = nil, gtfs: String? = nil) throws -> DaemonHarness.CommandResult {
        try harness.umctl(["region", "import", "town", "--osm", osm ?? server.url("town.osm"),
                           "--gtfs", gtfs ?? server.url("town.zip")])
    }

    /// Minutes of the transit option between the town's two stops at 07:55 on the test day.
    private func transitMinutes() throws -> Double? {
        let compare = try harness.json(["compare", SmallTown.first, SmallTown.last, "--at", "2022-01-12T07:55"])
        return compare["options"]?.arrayValue?.first { $0["mode"]?.stringValue == "transit" }?["duration_s"]?.numberValue
    }

    private func manifestText() throws -> String {
        try String(contentsOf: harness.dataDirectory.appendingPathComponent("regions/town/manifest.json"), encoding: .utf8)
    }

    func testARegionImportedByURLRecordsEachSourceAndItsValidators() throws {
        try harness.start()
        let imported = try importTown()
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stderr.contains("downloading"), "progress while fetching: \(imported.stderr)")
        XCTAssertNotNil(try transitMinutes(), "the fetched feed answers")
        XCTAssertEqual(server.requests().map(\.path), ["/town.osm", "/town.zip"], "one GET per source")

        let region = try XCTUnwrap(try harness.json(["region", "list"])["regions"]?.arrayValue?.first)
        let sources = try XCTUnwrap(region["sources"]?.arrayValue)
        XCTAssertEqual(sources.map { $0["source"]?.stringValue }, [server.url("town.osm"), server.url("town.zip")])
        XCTAssertEqual(sources.map { $0["role"]?.stringValue }, ["osm", "transit timetable"])
        for source in sources {
            XCTAssertEqual(source["remote"], .bool(true))
            XCTAssertNotNil(source["etag"]?.stringValue)
            XCTAssertNotNil(source["last_modified"]?.stringValue)
            XCTAssertNotNil(source["fetched_at"]?.stringValue)
            XCTAssertEqual(source["sha256"]?.stringValue?.count, 64)
        }
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(manifestText().utf8)) as? [String: Any])
        let origins = (manifest["sources"] as? [[String: Any]])?.map { $0["origin"] as? [String: Any] }
        XCTAssertEqual(origins?.map { $0?["url"] as? String }, [server.url("town.osm"), server.url("town.zip")])
        XCTAssertEqual(origins?.map { $0?["etag"] as? String }, sources.map { $0["etag"]?.stringValue })
        XCTAssertEqual(origins?.compactMap { $0?["fetchedAt"] as? String }.count, 2)
        let listing = try harness.umctl(["region", "list"])
        XCTAssertTrue(listing.stdout.contains(server.url("town.zip")), listing.stdout + listing.stderr)
    }

    func testImportingTheSameURLsAgainAsksConditionallyAndChangesNothing() throws {
        try harness.start()
        XCTAssertEqual(try importTown().status, 0)
        server.clearRequests()
        let again = try importTown()
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("up to date"), again.stdout)
        let requests = server.requests()
        XCTAssertEqual(requests.map(\.status), [304, 304], "one conditional request per source: \(requests)")
        XCTAssertTrue(requests.allSatisfy { $0.ifNoneMatch != nil && $0.ifModifiedSince != nil }, "\(requests)")
    }

    func testCredentialsInASourceURLAreNeverShownOrLoggedAndTheManifestIsOwnerOnly() throws {
        try harness.start(extraArguments: ["--log-level", "debug"])
        let secretURL = "http://someone:s3cretpass@127.0.0.1:\(server.port)/town.zip?token=t0ken"
        let imported = try importTown(gtfs: secretURL)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let refused = try importTown(gtfs: "http://someone:s3cretpass@127.0.0.1:\(server.port)/status/403?token=t0ken")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("GTFS feed http://***@127.0.0.1:\(server.port)/status/403: the server answered HTTP 403"),
                      refused.stderr)
        let shown = [imported.stdout, imported.stderr, refused.stdout, refused.stderr, harness.log,
                     try harness.umctl(["region", "list"]).stdout, try harness.umctl(["region", "list", "--json"]).stdout,
                     try harness.umctl(["status", "--json"]).stdout]
        for text in shown {
            XCTAssertFalse(text.contains("s3cretpass") || text.contains("t0ken") || text.contains("someone"), text)
        }
        let listed = try harness.umctl(["region", "list"]).stdout
        XCTAssertTrue(listed.contains("http://***@127.0.0.1:\(server.port)/town.zip"), listed)
        XCTAssertTrue(try manifestText().contains("s3cretpass"), "the manifest keeps the URL whole")
        let mode = try XCTUnwrap(try FileManager.default.attributesOfItem(
            atPath: harness.dataDirectory.appendingPathComponent("regions/town/manifest.json").path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
    }

    /// Each bad source, refused with its own code and words; the region answers as before and
    /// still lists the files it was imported from.
    func testEveryBadSourceURLIsRefusedAndTheRegionKeepsServing() throws {
        try harness.start(extraArguments: ["--fetch-stall-timeout", "1", "--gtfs-max-feed-mb", "1"])
        let osm = served.appendingPathComponent("town.osm").path, feed = served.appendingPathComponent("town.zip").path
        let first = try harness.umctl(["region", "import", "town", "--osm", osm, "--gtfs", feed])
        XCTAssertEqual(first.status, 0, first.stderr)
        let before = try XCTUnwrap(try transitMinutes())
        let manifestBefore = try manifestText()
        // A zip that is not GTFS: a feed without stops.
        let notGTFS = served.appendingPathComponent("notgtfs.zip")
        try GTFSZip.write(["town.osm": SmallTown.osm], to: notGTFS)
        let other = try LocalHTTPServer(directory: served)
        defer { other.stop() }
        let elsewhere = server.url("redirect-port/\(other.port)/town.zip")

        let cases: [(url: String, code: String, words: String)] = [
            (server.url("status/404"), "fetch_http_status", "the server answered HTTP 404"),
            (server.url("status/500"), "fetch_http_status", "the server answered HTTP 500"),
            (server.url("redirect-loop"), "fetch_redirect_loop", "too many redirects"),
            (elsewhere, "fetch_cross_host_redirect",
             "the source at \(elsewhere) redirects to \(other.url("town.zip")), another host; allow it with --allow-cross-host-redirects"),
            (server.url("html/town.zip"), "fetch_not_a_source", "the server sent an HTML page (Content-Type text/html), not a GTFS feed"),
            (server.url("notgtfs.zip"), "import_failed", "notgtfs.zip"),
            (server.url("cut/town.zip"), "fetch_cut_off", "the transfer was cut off after"),
            (server.url("stall/town.zip"), "fetch_stalled", "the transfer made no progress for 1 s"),
            (server.url("huge"), "fetch_too_large", "larger than 1 MiB, the limit for a GTFS feed (setting gtfs_max_feed_mb)"),
            ("file:///etc/passwd", "fetch_scheme_refused", "the scheme \"file\" is refused"),
            ("ftp://127.0.0.1/town.zip", "fetch_scheme_refused", "the scheme \"ftp\" is refused"),
        ]
        for (url, code, words) in cases {
            let refused = try harness.umctl(["region", "import", "town", "--osm", osm, "--gtfs", url])
            XCTAssertEqual(refused.status, 1, "\(url): \(refused.stdout)")
            XCTAssertTrue(refused.stderr.contains(words), "\(url): \(refused.stderr)")
            XCTAssertFalse(refused.stderr.contains(code), "\(url): the sentence only, the word \(code) is for --json: \(refused.stderr)")
            XCTAssertEqual(try transitMinutes(), before, "\(url): the region answers from its previous timetable")
            XCTAssertEqual(try manifestText(), manifestBefore, "\(url): nothing replaced")
        }
        let listed = try harness.umctl(["region", "list"]).stdout
        XCTAssertTrue(listed.contains("town.zip"), listed)
    }

    /// Issue 44: `--allow-cross-host-redirects` reaches the downloader: a source that redirects
    /// to another port (a second server) is fetched from there.
    func testWithTheOptionASourceRedirectingToAnotherPortIsImported() throws {
        let other = try LocalHTTPServer(directory: served)
        defer { other.stop() }
        try harness.start(extraArguments: ["--allow-cross-host-redirects"])
        let imported = try importTown(gtfs: server.url("redirect-port/\(other.port)/town.zip"))
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(other.requests().map(\.path), ["/town.zip"])
        XCTAssertNotNil(try transitMinutes(), "the redirected feed was imported")
    }

    func testAnInterruptedDownloadResumesOnTheNextImport() throws {
        try harness.start()
        let url = server.url("cut-once/town.zip")
        let cut = try importTown(gtfs: url)
        XCTAssertEqual(cut.status, 1)
        XCTAssertTrue(cut.stderr.contains("the transfer was cut off after"), cut.stderr)
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: served.appendingPathComponent("town.zip").path)[.size] as? Int)
        let resumed = try importTown(gtfs: url)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        let last = try XCTUnwrap(server.requests().last { $0.path == "/cut-once/town.zip" })
        XCTAssertEqual(last.range, "bytes=\(size / 2)-")
        XCTAssertEqual(last.status, 206)
        XCTAssertNotNil(try transitMinutes(), "the joined feed imports")
    }
}
