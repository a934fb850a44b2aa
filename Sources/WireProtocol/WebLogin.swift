import FoundationEssentials
import Glibc

/// How `umctl web` logs a browser into the daemon's web app (`usefulmapd --http`).
///
/// The daemon writes `web-login` next to its socket (mode 0600, so only its user reads it):
/// the app's address and a secret made at start. `umctl web` signs a one-time token with the
/// secret; the daemon takes each token once, within `lifetime` seconds, and answers it with a
/// session cookie. A URL seen by someone else (a process list, a history) is then worth nothing.
///
/// ```swift
/// let login = try WebLogin.read(socketPath: path)
/// let url = login.url(token: WebLogin.token(secret: login.secret, now: time(nil)), view: "#/plan/3")
/// ```
public struct WebLogin: Equatable, Sendable {
    /// `http://127.0.0.1:PORT`, the origin the app is served at.
    public var origin: String
    /// Hexadecimal; signs the login tokens.
    public var secret: String

    public init(origin: String, secret: String) {
        self.origin = origin
        self.secret = secret
    }

    /// Seconds a token stays good after it was made.
    public static let lifetime = 120

    /// The file next to the socket at `socketPath`.
    public static func path(socketPath: String) -> String {
        guard let slash = socketPath.lastIndex(of: "/") else { return "web-login" }
        return String(socketPath[...slash]) + "web-login"
    }

    /// The file's text.
    public var text: String { "origin=\(origin)\nsecret=\(secret)\n" }

    /// Reads the file's text; nil when it is not one.
    public init?(text: String) {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let origin = fields["origin"], let secret = fields["secret"], !secret.isEmpty else { return nil }
        self.init(origin: origin, secret: secret)
    }

    /// Reads the file next to the socket. - throws: `WebLoginError.notServing`.
    public static func read(socketPath: String) throws -> WebLogin {
        let path = path(socketPath: socketPath)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw WebLoginError.notServing(path: path) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while bytes.count < 8192 {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 1024) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        guard let login = WebLogin(text: String(decoding: bytes, as: UTF8.self)) else { throw WebLoginError.notServing(path: path) }
        return login
    }

    /// A fresh secret: 32 random bytes in hexadecimal.
    public static func newSecret() -> String {
        var random = SystemRandomNumberGenerator()
        return SHA256.hex((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    /// A one-time token: `TIME.NONCE.MAC`, the MAC an HMAC-SHA-256 of `TIME.NONCE` under the secret.
    public static func token(secret: String, now: Int) -> String {
        var random = SystemRandomNumberGenerator()
        let nonce = SHA256.hex((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
        let signed = "\(now).\(nonce)"
        return "\(signed).\(SHA256.hex(SHA256.hmac(key: Array(secret.utf8), message: Array(signed.utf8))))"
    }

    /// The nonce of a token signed with `secret` and made at most `lifetime` seconds before
    /// `now`; nil for any other (the caller then checks the nonce was not used before).
    public static func verifiedNonce(_ token: String, secret: String, now: Int) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let made = Int(parts[0]), made <= now + 5, now - made <= lifetime,
              parts[1].count == 32 else { return nil }
        let expected = SHA256.hex(SHA256.hmac(key: Array(secret.utf8), message: Array("\(parts[0]).\(parts[1])".utf8)))
        // Compared in full, whatever differs first: the time taken tells nothing of the MAC.
        let given = Array(parts[2].utf8), wanted = Array(expected.utf8)
        guard given.count == wanted.count else { return nil }
        var difference: UInt8 = 0
        for (a, b) in zip(given, wanted) { difference |= a ^ b }
        return difference == 0 ? String(parts[1]) : nil
    }

    /// The URL that logs in with `token` and opens `view` (a fragment such as `#/plan/3`, or "").
    public func url(token: String, view: String = "") -> String { "\(origin)/login?token=\(token)\(view)" }
}

public enum WebLoginError: Error, Equatable, CustomStringConvertible {
    case notServing(path: String)

    public var description: String {
        switch self {
        case .notServing(let path):
            "the daemon does not serve the web app (no \(path)): start usefulmapd with --http 127.0.0.1:PORT "
                + "(or `http = 127.0.0.1:PORT` in its config file)"
        }
    }
}
