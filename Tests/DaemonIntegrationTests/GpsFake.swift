import Foundation
import Glibc
import XCTest

/// A real gpsd fed by `gpsfake` (Debian gpsd-clients) from an NMEA log the test writes, on a
/// free loopback port. gpsfake starts its own gpsd (`gpsd -N -S PORT …`) on a pseudo-terminal
/// and writes the log into it once (`-1`), or again and again (`repeating`).
final class GpsFake {
    static let gpsfake = "/usr/bin/gpsfake"
    static let gpsd = "/usr/sbin/gpsd"

    let port: UInt16
    let process: Process
    private let output: URL

    /// Why gpsd cannot run here, or nil.
    static var unavailableReason: String? {
        for tool in [gpsfake, gpsd] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is not installed (Debian packages gpsd and gpsd-clients, see .ci/packages.txt)"
        }
        return nil
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw HarnessError("bind: \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Starts gpsfake on `port`, feeding `log` with `cycle` seconds between sentences, once or
    /// (`repeating`) until stopped: a client that connects late still gets the log's fixes.
    init(log: URL, port: UInt16, cycle: Double = 0.1, repeating: Bool = false, directory: URL) throws {
        self.port = port
        output = directory.appendingPathComponent("gpsfake-\(port)-\(UUID().uuidString.prefix(4)).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.gpsfake)
        process.arguments = (repeating ? [] : ["-1"]) + ["-q", "-c", String(cycle), "-P", String(port), log.path]
        process.currentDirectoryURL = directory
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit { stop() }

    var log: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// The gpsd that this gpsfake started: the one process whose command line is
    /// `gpsd … -S PORT …` for this test's own port.
    var gpsdPID: pid_t? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard words.first?.hasSuffix("gpsd") == true, let flag = words.firstIndex(of: "-S"),
                  flag + 1 < words.count, words[flag + 1] == String(port) else { continue }
            return pid
        }
        return nil
    }

    /// Kills this gpsfake's gpsd (gpsfake then ends by itself, "daemon died").
    func killGpsd() throws {
        guard let pid = gpsdPID else { throw HarnessError("no gpsd on port \(port): \(log)") }
        kill(pid, SIGKILL)
        process.waitUntilExit()
    }

    /// Ends gpsfake and its gpsd: gpsd first (gpsfake then ends by itself), gpsfake killed if
    /// it has not within a few seconds.
    func stop() {
        if let gpsd = gpsdPID { kill(gpsd, SIGKILL) }
        guard process.isRunning else { return }
        for _ in 0..<50 where process.isRunning { usleep(100_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// An NMEA 0183 log as a receiver would send it: per second one GGA (position, HDOP) then one
/// RMC (date, time). gpsd reports a TPV per second whose `eph` is 19 m × HDOP for a plain GPS
/// fix (gpsd 3.22), so an accuracy in metres is written as HDOP = accuracy / 19. GGA comes
/// first so that each TPV carries its own second's HDOP.
enum NMEALog {
    struct Fix {
        /// Metres north of `center` (negative: south).
        var north: Double
        var accuracy: Double
    }

    static let metresPerDegreeLatitude = 111_320.0

    static func latitude(_ fix: Fix, center: (lat: Double, lon: Double)) -> Double {
        center.lat + fix.north / metresPerDegreeLatitude
    }

    /// Writes one fix per second from `start` (UTC) and returns the file.
    static func write(_ fixes: [Fix], center: (lat: Double, lon: Double), start: Date, to url: URL) throws -> URL {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? .current
        var lines: [String] = []
        for (index, fix) in fixes.enumerated() {
            let date = start.addingTimeInterval(Double(index))
            let parts = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let time = String(format: "%02d%02d%02d.00", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
            let day = String(format: "%02d%02d%02d", parts.day ?? 0, parts.month ?? 0, (parts.year ?? 2000) % 100)
            let (lat, ns) = degreesMinutes(latitude(fix, center: center), width: 2, positive: "N", negative: "S")
            let (lon, ew) = degreesMinutes(center.lon, width: 3, positive: "E", negative: "W")
            let hdop = String(format: "%.2f", fix.accuracy / 19)
            lines.append(sentence("GPGGA,\(time),\(lat),\(ns),\(lon),\(ew),1,08,\(hdop),100.0,M,0.0,M,,"))
            lines.append(sentence("GPRMC,\(time),A,\(lat),\(ns),\(lon),\(ew),0.0,0.0,\(day),,,A"))
        }
        try (lines.joined(separator: "\r\n") + "\r\n").write(to: url, atomically: true, encoding: .ascii)
        return url
    }

    /// `$BODY*CS` with the XOR checksum gpsd checks.
    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return "$\(body)*\(String(format: "%02X", checksum))"
    }

    static func degreesMinutes(_ value: Double, width: Int, positive: String, negative: String) -> (String, String) {
        let magnitude = abs(value)
        let degrees = Int(magnitude)
        let minutes = (magnitude - Double(degrees)) * 60
        return (String(format: "%0\(width)d%07.4f", degrees, minutes), value < 0 ? negative : positive)
    }
}
