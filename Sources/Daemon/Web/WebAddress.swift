import Foundation

/// Where the web app is served (`--http 127.0.0.1:PORT`): an IPv4 loopback address only, so
/// that no other machine can reach it. Port 0 lets the system choose one (the tests use it);
/// `umctl web` reads the port the daemon got from `web-login`.
public struct WebAddress: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    /// - throws: `ConfigurationError.invalidValue` naming a non-loopback host or a bad port.
    public init(_ text: String) throws {
        let expected = "an IPv4 loopback address and a port, e.g. 127.0.0.1:8765 (the web app is never served to the network)"
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw ConfigurationError.invalidValue(setting: "http address", value: text, expected: expected)
        }
        let host = String(text[..<colon])
        let octets = host.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
        guard octets.count == 4, !octets.contains(nil), octets[0] == 127 else {
            throw ConfigurationError.invalidValue(setting: "http address", value: text,
                                                  expected: "\(expected); \(host) is not a loopback address")
        }
        self.host = host
        self.port = port
    }

    public var description: String { "\(host):\(port)" }
}
