import Foundation

/// Where gpsd listens: `HOST:PORT` (TCP, `[v6]:PORT` for IPv6; the port defaults to gpsd's
/// 2947) or the absolute path of a Unix socket.
public enum GpsdAddress: Hashable, Sendable, CustomStringConvertible {
    case tcp(host: String, port: UInt16)
    case unix(path: String)

    public static let defaultPort: UInt16 = 2947

    /// Nil for text that is neither an absolute path nor a host with an optional valid port.
    public init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("/") {
            guard text.utf8.count < 108 else { return nil } // sockaddr_un.sun_path
            self = .unix(path: text)
            return
        }
        var host = Substring(text), port: Substring?
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return nil }
            port = rest.isEmpty ? nil : rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
            guard !host.contains(":") else { return nil } // a bare IPv6 address needs brackets
        }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { return nil }
        if let port {
            guard let number = UInt16(port), number > 0 else { return nil }
            self = .tcp(host: String(host), port: number)
        } else {
            self = .tcp(host: String(host), port: Self.defaultPort)
        }
    }

    public var description: String {
        switch self {
        case let .tcp(host, port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): path
        }
    }
}
