import Foundation
import Glibc
import Synchronization

/// A gpsd written in the test: it listens on a free loopback port and hands each connection it
/// accepts to `serve` (on its own thread), closing it when `serve` returns. For the behaviours a
/// real gpsd will not show on demand: a receiver with a wrong date, a gpsd that drops every
/// connection.
final class FakeGpsd: Sendable {
    let port: UInt16
    private let listener: Int32
    private let accepted = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)

    /// `{"class":"VERSION",…}`: what gpsd sends first on every connection.
    static let versionLine = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"# + "\n"

    /// A TPV report with a 3D fix at `time`.
    static func positionLine(lat: Double, lon: Double, accuracy: Double, time: String) -> String {
        #"{"class":"TPV","mode":3,"time":"\#(time)","lat":\#(lat),"lon":\#(lon),"eph":\#(accuracy)}"# + "\n"
    }

    init(serve: @escaping @Sendable (_ connection: Int32, _ isStopping: @Sendable () -> Bool) -> Void) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound, listen(fd, 16) == 0 else {
            close(fd)
            throw HarnessError("bind/listen: \(errno)")
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop(serve) }
        thread.start()
    }

    deinit { stop() }

    /// Connections accepted so far.
    var connections: Int { accepted.load(ordering: .sequentiallyConsistent) }

    /// `host:port` for `--gpsd`.
    var address: String { "127.0.0.1:\(port)" }

    func stop() {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// Writes all of `text`; false once the peer has gone.
    static func send(_ text: String, to fd: Int32) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Reads and discards until the peer closes or the fake stops.
    static func drain(_ fd: Int32, until isStopping: () -> Bool) {
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !isStopping() {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) >= 0 else { return }
            guard descriptor.revents != 0 else { continue }
            if buffer.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }) <= 0 { return }
        }
    }

    private func acceptLoop(_ serve: @escaping @Sendable (Int32, @Sendable () -> Bool) -> Void) {
        defer { close(listener) }
        let isStopping: @Sendable () -> Bool = { [self] in stopping.load(ordering: .sequentiallyConsistent) }
        while !isStopping() {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            accepted.add(1, ordering: .sequentiallyConsistent)
            let thread = Thread {
                serve(connection, isStopping)
                close(connection)
            }
            thread.start()
        }
    }
}
