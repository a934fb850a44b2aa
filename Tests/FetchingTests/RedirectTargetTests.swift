@testable import Fetching
import XCTest

/// Which redirects stay on the host and port the user named (issue 44).
final class RedirectTargetTests: XCTestCase {
    func testOnlyTheSameHostAndExplicitPortStay() {
        XCTAssertTrue(RedirectTarget.staysOnHost("https://Example.org/b", named: "http://example.org/a"),
                      "an upgrade to https on the default ports is the same host")
        XCTAssertTrue(RedirectTarget.staysOnHost("http://example.org:80/b", named: "http://example.org/a"))
        XCTAssertFalse(RedirectTarget.staysOnHost("http://example.org:8080/b", named: "http://example.org/a"))
        XCTAssertFalse(RedirectTarget.staysOnHost("http://127.0.0.1:2/b", named: "http://127.0.0.1:1/a"))
        XCTAssertFalse(RedirectTarget.staysOnHost("http://other.org/a", named: "http://example.org/a"))
    }

    func testARelativeLocationResolvesAgainstTheURLThatSentIt() {
        XCTAssertEqual(RedirectTarget.resolve("/feed.zip", from: "http://127.0.0.1:1/redirect/feed.zip"), "http://127.0.0.1:1/feed.zip")
        XCTAssertEqual(RedirectTarget.resolve("http://b:2/y", from: "http://a:1/x"), "http://b:2/y")
    }
}
