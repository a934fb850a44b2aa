import Foundation
import Glibc
import HTTPTestSupport
import WireProtocol

/// `usefulmap-bench tiles`: the web map's squares as the page gets them from a real daemon
/// (`--http`, Tampere imported): each request over loopback HTTP with the session cookie,
/// first drawn (cold: the street layer already read by one square first), then from the disk
/// cache. Squares around Keskustori at every zoom the daemon draws (10 to 18).
func runTilesSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "tiles")
    let daemon = try BenchDaemon(importTampere: true, arguments: ["--http", "127.0.0.1:0"])
    defer { daemon.stop() }
    let login = try WebLogin.read(socketPath: daemon.socketPath)
    guard let port = UInt16(login.origin.split(separator: ":").last ?? "") else { throw BenchError("no port in \(login.origin)") }
    let host = "127.0.0.1:\(port)"
    let loggedIn = try tileRequest(port: port, "/login?token=\(WebLogin.token(secret: login.secret, now: time(nil)))", host: host, cookie: nil)
    guard let cookie = loggedIn.cookie else { throw BenchError("login refused: \(loggedIn.status)") }

    // Keskustori's square at each zoom, and a block of squares around it.
    func squares(zoom: Int) -> [String] {
        let n = Double(1 << zoom), latitude = 61.4978 * .pi / 180
        let x = Int((23.7610 + 180) / 360 * n), y = Int((1 - log(tan(latitude) + 1 / cos(latitude)) / .pi) / 2 * n)
        return (-2...2).flatMap { dx in (-1...1).map { dy in "/tiles/tampere/\(zoom)/\(x + dx)/\(y + dy).png" } }
    }
    let all = (10...18).flatMap(squares(zoom:))
    // The first square reads the region's street layer (once per region version): not counted.
    _ = try tileRequest(port: port, all[0], host: host, cookie: cookie)
    var cold: [Double] = [], cached: [Double] = []
    var bytes = 0
    for path in all.dropFirst() {
        let (answer, seconds) = try time { try tileRequest(port: port, path, host: host, cookie: cookie) }
        guard answer.status == 200 else { throw BenchError("\(path): \(answer.status)") }
        cold.append(seconds)
        bytes += answer.bodyBytes
    }
    for path in all.dropFirst() {
        cached.append(try time { try tileRequest(port: port, path, host: host, cookie: cookie) }.1)
    }
    report.addLatencies("tile cold (drawn, zooms 10-18)", cold)
    report.addLatencies("tile cached (from disk)", cached)
    report.add("tile size, mean", Double(bytes) / Double(max(1, cold.count)) / 1024, unit: "KiB")
    return report
}

private struct TileAnswer {
    var status: Int
    var cookie: String?
    var bodyBytes: Int
}

/// One GET over its own connection (`Connection: close`), so each cold square is timed alone.
private func tileRequest(port: UInt16, _ path: String, host: String, cookie: String?) throws -> TileAnswer {
    guard let fd = connectedLoopbackSocket(port: port) else { throw BenchError("cannot connect to \(host)") }
    defer { close(fd) }
    let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\(cookie.map { "Cookie: \($0)\r\n" } ?? "")\r\n".utf8)
    _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var received = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { break }
        received += buffer[0..<count]
    }
    let separator: [UInt8] = [13, 10, 13, 10]
    guard let end = (0..<max(0, received.count - 3)).first(where: { Array(received[$0..<($0 + 4)]) == separator }) else {
        throw BenchError("no answer for \(path)")
    }
    let head = String(decoding: received[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let status = Int(head[0].split(separator: " ")[1]) ?? 0
    let cookieLine = head.first { $0.lowercased().hasPrefix("set-cookie:") }
    let cookie = cookieLine.map { String($0.dropFirst("set-cookie:".count).split(separator: ";")[0]).trimmingCharacters(in: .whitespaces) }
    return TileAnswer(status: status, cookie: cookie, bodyBytes: received.count - end - 4)
}
