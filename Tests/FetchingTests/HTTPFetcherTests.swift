import Fetching
import Foundation
import HTTPTestSupport
import TestSupport
import XCTest

/// HTTPFetcher against a real HTTP server on 127.0.0.1 (LocalHTTPServer), one behaviour per test.
final class HTTPFetcherTests: XCTestCase {
    private var temporary: TemporaryDirectory!
    private var directory: URL { temporary.url }
    private var server: LocalHTTPServer!
    private let fetcher = HTTPFetcher()
    /// 300 kB of a pattern that shows where a wrongly joined resume went wrong.
    private let content = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 251) })

    override func setUpWithError() throws {
        temporary = try TemporaryDirectory("fetch")
        try content.write(to: directory.appendingPathComponent("feed.zip"))
        server = try LocalHTTPServer(directory: directory)
    }

    override func tearDown() {
        server?.stop()
        temporary?.remove()
    }

    private func request(_ path: String, maxBytes: Int = 10 << 20) -> FetchRequest {
        FetchRequest(url: server.url(path), maxBytes: maxBytes)
    }

    private func fetchError(_ request: FetchRequest, into destination: FetchDestination = .memory,
                            file: StaticString = #filePath, line: UInt = #line) -> FetchError? {
        do {
            let response = try fetcher.fetch(request, into: destination)
            XCTFail("fetched \(response.bytes) bytes with status \(response.status)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Fetching and validators

    func testAFetchReturnsTheBodyAndTheServersValidators() throws {
        let response = try fetcher.fetch(request("feed.zip"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, content)
        XCTAssertEqual(response.bytes, content.count)
        XCTAssertNotNil(response.etag)
        XCTAssertNotNil(response.lastModified)
        XCTAssertFalse(response.notModified)
    }

    func testARequestWithTheServersETagGets304AndNoBody() throws {
        let first = try fetcher.fetch(request("feed.zip"))
        var again = request("feed.zip")
        again.ifNoneMatch = first.etag
        let second = try fetcher.fetch(again)
        XCTAssertTrue(second.notModified)
        XCTAssertEqual(second.status, 304)
        XCTAssertNil(second.body)
        XCTAssertEqual(server.requests().last?.ifNoneMatch, first.etag)
        XCTAssertEqual(server.requests().last?.status, 304)
    }

    func testARequestWithTheServersLastModifiedGets304() throws {
        let first = try fetcher.fetch(request("feed.zip"))
        var again = request("feed.zip")
        again.ifModifiedSince = first.lastModified
        XCTAssertTrue(try fetcher.fetch(again).notModified)
        XCTAssertEqual(server.requests().last?.ifModifiedSince, first.lastModified)
    }

    func testAChangedFileIsFetchedAgainDespiteTheOldETag() throws {
        let first = try fetcher.fetch(request("feed.zip"))
        let replaced = Data("a new feed".utf8)
        try replaced.write(to: directory.appendingPathComponent("feed.zip"))
        var again = request("feed.zip")
        again.ifNoneMatch = first.etag
        let second = try fetcher.fetch(again)
        XCTAssertFalse(second.notModified)
        XCTAssertEqual(second.body, replaced)
    }

    func testAFileDestinationReceivesTheBody() throws {
        let target = directory.appendingPathComponent("download.part")
        let response = try fetcher.fetch(request("feed.zip"), into: .file(target))
        XCTAssertNil(response.body)
        XCTAssertEqual(response.bytes, content.count)
        XCTAssertEqual(try Data(contentsOf: target), content)
    }

    func testARedirectIsFollowed() throws {
        let response = try fetcher.fetch(request("redirect/feed.zip"))
        XCTAssertEqual(response.body, content)
        XCTAssertEqual(server.requests().map(\.status), [302, 200])
    }

    // MARK: - Resuming

    func testAnInterruptedTransferResumesWithARange() throws {
        let version = try XCTUnwrap(fetcher.fetch(request("feed.zip")).etag, "the server names its version")
        let target = directory.appendingPathComponent("download.part")
        try content.prefix(120_000).write(to: target)
        var resume = request("feed.zip")
        resume.resumeFrom = 120_000
        resume.ifRange = version  // a transfer resumes only onto the version it began with
        let response = try fetcher.fetch(resume, into: .file(target))
        XCTAssertTrue(response.resumed)
        XCTAssertEqual(response.status, 206)
        XCTAssertEqual(response.bytes, content.count)
        XCTAssertEqual(try Data(contentsOf: target), content)
        XCTAssertEqual(server.requests().last?.range, "bytes=120000-")
    }

    func testAServerWithoutRangesHasTheFileWrittenFromTheStart() throws {
        let target = directory.appendingPathComponent("download.part")
        try content.prefix(120_000).write(to: target)
        var resume = request("noheaders/feed.zip")
        resume.resumeFrom = 120_000
        resume.ifRange = "\"v1\""  // the range is asked for; this server sends the whole file
        let response = try fetcher.fetch(resume, into: .file(target))
        XCTAssertFalse(response.resumed)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(try Data(contentsOf: target), content)
    }

    func testAServerWithoutValidatorsSendsNone() throws {
        let response = try fetcher.fetch(request("noheaders/feed.zip"))
        XCTAssertNil(response.etag)
        XCTAssertNil(response.lastModified)
        XCTAssertEqual(response.body, content)
    }

    // MARK: - Failures

    func testA404IsAnHTTPStatusError() {
        XCTAssertEqual(fetchError(request("status/404")), .httpStatus(404))
        XCTAssertEqual(fetchError(request("missing.zip")), .httpStatus(404))
        XCTAssertEqual(FetchError.httpStatus(404).code, "fetch_http_status")
    }

    func testA500IsAnHTTPStatusError() {
        XCTAssertEqual(fetchError(request("status/500")), .httpStatus(500))
    }

    func testARedirectLoopIsRefused() {
        XCTAssertEqual(fetchError(request("redirect-loop")), .redirectLoop)
        XCTAssertEqual(server.requests().count, 6, "the first request and five redirects")
    }

    /// Issue 44: a redirect to another host:port (a second server on 127.0.0.1) is refused
    /// before it is followed, naming both ends and the option that allows it.
    func testARedirectToAnotherPortIsRefusedByDefaultNamingBothURLs() throws {
        let other = try LocalHTTPServer(directory: directory)
        defer { other.stop() }
        let named = server.url("redirect-port/\(other.port)/feed.zip")
        let error = fetchError(FetchRequest(url: named, maxBytes: 10 << 20))
        XCTAssertEqual(error, .crossHostRedirect(from: named, to: other.url("feed.zip")))
        XCTAssertEqual(error?.code, "fetch_cross_host_redirect")
        XCTAssertEqual(error?.message, "the source at \(named) redirects to \(other.url("feed.zip")), another host; "
                       + "allow it with --allow-cross-host-redirects / config key allow_cross_host_redirects")
        XCTAssertTrue(other.requests().isEmpty, "the other server is never asked")
    }

    func testARedirectToAnotherPortIsFollowedWhenAllowed() throws {
        let other = try LocalHTTPServer(directory: directory)
        defer { other.stop() }
        var allowed = request("redirect-port/\(other.port)/feed.zip")
        allowed.allowCrossHostRedirects = true
        XCTAssertEqual(try fetcher.fetch(allowed).body, content)
        XCTAssertEqual(other.requests().map(\.status), [200])
    }

    func testARedirectOnTheSameHostAndPortNeedsNoOption() throws {
        XCTAssertEqual(try fetcher.fetch(request("redirect/redirect/feed.zip")).body, content)
    }

    func testAnHTMLPageWithStatus200ComesBackWithItsContentType() throws {
        let response = try fetcher.fetch(request("html/feed.zip"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.contentType, "text/html")
    }

    func testATransferCutOffHalfWayReportsWhatArrived() {
        let target = directory.appendingPathComponent("download.part")
        let error = fetchError(request("cut/feed.zip"), into: .file(target))
        XCTAssertEqual(error, .cutOff(received: content.count / 2, expected: content.count))
        XCTAssertEqual(error?.code, "fetch_cut_off")
        XCTAssertEqual(try Data(contentsOf: target), content.prefix(content.count / 2), "kept for a resume")
    }

    func testAStalledServerFailsAfterTheStallTimeout() {
        var stalled = request("stall/feed.zip")
        stalled.stallTimeout = 1
        XCTAssertEqual(fetchError(stalled), .stalled(seconds: 1))
    }

    func testATransferLongerThanTheTotalTimeoutTimesOut() {
        var slow = request("stall/feed.zip")
        slow.stallTimeout = 30
        slow.totalTimeout = 1
        XCTAssertEqual(fetchError(slow), .timedOut)
    }

    func testAContentLengthAboveTheLimitIsRefusedBeforeTheBody() {
        XCTAssertEqual(fetchError(request("huge", maxBytes: 1 << 20)), .tooLarge(limit: 1 << 20))
    }

    func testABodyPassingTheLimitIsCut() {
        let target = directory.appendingPathComponent("download.part")
        let error = fetchError(request("chunked/feed.zip", maxBytes: 100_000), into: .file(target))
        XCTAssertEqual(error, .tooLarge(limit: 100_000))
        XCTAssertLessThanOrEqual((try? Data(contentsOf: target))?.count ?? 0, 100_000)
    }

    func testAChunkedBodyWithinTheLimitArrivesWhole() throws {
        XCTAssertEqual(try fetcher.fetch(request("chunked/feed.zip")).body, content)
    }

    func testAProgressCallbackReturningFalseCancels() {
        var seen = false
        do {
            _ = try fetcher.fetch(request("feed.zip"), progress: { received, expected in
                XCTAssertEqual(expected, 300_000)
                XCTAssertLessThanOrEqual(received, 300_000)
                return false
            })
            XCTFail("not cancelled")
        } catch {
            seen = error == .cancelled
        }
        XCTAssertTrue(seen)
    }

    func testACancelledFetchEndsWhileTheServerStallsInsteadOfWaitingForTheStallTimeout() {
        let server = self.server!
        var stalled = request("stall/feed.zip")
        stalled.stallTimeout = 120
        // Cancelled once the server has the request, so that curl is waiting with nothing to read.
        stalled.isCancelled = { server.requests().contains { $0.path.hasPrefix("/stall/") } }
        XCTAssertEqual(fetchError(stalled), .cancelled)
    }

    func testANonHTTPSchemeIsRefusedNamingTheScheme() {
        for (url, scheme) in [("file:///etc/passwd", "file"), ("ftp://127.0.0.1/feed.zip", "ftp"),
                              ("gopher://127.0.0.1/", "gopher"), ("FILE:///etc/passwd", "file")] {
            XCTAssertEqual(fetchError(FetchRequest(url: url, maxBytes: 1000)), .schemeRefused(scheme), url)
            XCTAssertTrue(FetchError.schemeRefused(scheme).message.contains("\"\(scheme)\""))
        }
        XCTAssertEqual(FetchError.schemeRefused("ftp").code, "fetch_scheme_refused")
        XCTAssertTrue(server.requests().isEmpty)
    }

    func testARedirectToAFileURLIsRefusedNamingTheFileSchemeAndAskingForAPath() {
        let error = fetchError(request("redirect-file"))
        XCTAssertEqual(error, .schemeRefused("file"), "the scheme of the Location, not \"unknown\"")
        XCTAssertTrue(error?.message.contains("file:// is not supported, give the file's path instead") == true, "\(error?.message ?? "")")
    }

    func testTextWithoutASchemeIsAnInvalidURL() {
        XCTAssertEqual(fetchError(FetchRequest(url: "/tmp/feed.zip", maxBytes: 1000)), .invalidURL("/tmp/feed.zip"))
    }

    func testARefusedConnectionIsAConnectionFailure() throws {
        let port = server.port
        server.stop()
        let error = fetchError(FetchRequest(url: "http://127.0.0.1:\(port)/feed.zip", maxBytes: 1000))
        guard case .connectionFailed = error else { return XCTFail("\(String(describing: error))") }
    }

    // MARK: - Credentials

    func testCredentialsInTheURLNeverReachAnErrorMessage() throws {
        let port = server.port
        let withSecret = "http://someone:s3cretpass@127.0.0.1:\(port)/status/403?token=tok3n"
        let answered = fetchError(FetchRequest(url: withSecret, maxBytes: 1000))
        XCTAssertEqual(answered, .httpStatus(403))
        server.stop()
        for failed in [fetchError(FetchRequest(url: withSecret, maxBytes: 1000)),
                       fetchError(FetchRequest(url: "ftp://someone:s3cretpass@127.0.0.1/", maxBytes: 1000)),
                       fetchError(FetchRequest(url: "http://someone:s3cretpass@[oops/", maxBytes: 1000))] {
            let error = try XCTUnwrap(failed)
            XCTAssertFalse("\(error) \(error.message)".contains("s3cretpass"), "\(error)")
            XCTAssertFalse("\(error) \(error.message)".contains("tok3n"), "\(error)")
        }
    }

    func testRedactionHidesUserPasswordAndQuery() {
        XCTAssertEqual(SourceURL.redacted("https://u:p@h/x?token=abc"), "https://***@h/x")
        XCTAssertEqual(SourceURL.redacted("https://user@example.org:8443/feeds/gtfs.zip#top"),
                       "https://***@example.org:8443/feeds/gtfs.zip")
        XCTAssertEqual(SourceURL.redacted("http://example.org/a@b/feed.zip"), "http://example.org/a@b/feed.zip")
        XCTAssertEqual(SourceURL.redacted("http://example.org/gtfs.zip"), "http://example.org/gtfs.zip")
        XCTAssertEqual(SourceURL.redacted("/home/me/feed.zip"), "/home/me/feed.zip")
    }

    func testIsURLTellsURLsFromPaths() {
        XCTAssertTrue(SourceURL.isURL("https://example.org/a.zip"))
        XCTAssertTrue(SourceURL.isURL("ftp://example.org/a.zip"))
        XCTAssertTrue(SourceURL.isURL("file:///tmp/a.zip"))
        XCTAssertFalse(SourceURL.isURL("/tmp/a.zip"))
        XCTAssertFalse(SourceURL.isURL("data/feeds://odd.zip"))
        XCTAssertFalse(SourceURL.isURL("tampere.osm.pbf"))
    }
}
