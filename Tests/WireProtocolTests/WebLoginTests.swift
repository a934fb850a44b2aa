import WireProtocol
import XCTest

/// The web app's one-time login tokens and the SHA-256 they are signed with.
final class WebLoginTests: XCTestCase {
    func testSHA256AndHMACGiveTheStandardsTestVectors() {
        XCTAssertEqual(SHA256.hex(SHA256.hash(Array("abc".utf8))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(SHA256.hash([])), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        XCTAssertEqual(SHA256.hex(SHA256.hash(long)), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // RFC 4231, test case 2.
        XCTAssertEqual(SHA256.hex(SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))),
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // RFC 4231, test case 6: a key longer than a block is hashed first.
        XCTAssertEqual(SHA256.hex(SHA256.hmac(key: [UInt8](repeating: 0xaa, count: 131),
                                              message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))),
                       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    func testATokenIsGoodOnlyWithItsSecretAndWhileFresh() {
        let secret = WebLogin.newSecret()
        let token = WebLogin.token(secret: secret, now: 1_000_000)
        XCTAssertNotNil(WebLogin.verifiedNonce(token, secret: secret, now: 1_000_000 + WebLogin.lifetime))
        XCTAssertNil(WebLogin.verifiedNonce(token, secret: secret, now: 1_000_000 + WebLogin.lifetime + 1), "too old")
        XCTAssertNil(WebLogin.verifiedNonce(token, secret: WebLogin.newSecret(), now: 1_000_000), "another secret")
        XCTAssertNil(WebLogin.verifiedNonce("999" + token, secret: secret, now: 1_000_000), "another time")
        XCTAssertNotEqual(WebLogin.token(secret: secret, now: 1), WebLogin.token(secret: secret, now: 1), "each token has its own nonce")
    }

    func testTheLoginFileSitsNextToTheSocketAndReadsBack() {
        XCTAssertEqual(WebLogin.path(socketPath: "/run/user/1000/usefulmap/usefulmapd.sock"), "/run/user/1000/usefulmap/web-login")
        let login = WebLogin(origin: "http://127.0.0.1:8765", secret: "ab12")
        XCTAssertEqual(WebLogin(text: login.text), login)
        XCTAssertNil(WebLogin(text: "origin=http://127.0.0.1:1\n"))
    }
}
