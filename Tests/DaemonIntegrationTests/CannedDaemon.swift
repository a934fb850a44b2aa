import Foundation
import Glibc
import WireProtocol

/// A stand-in for usefulmapd on a Unix socket, for what a client sends and when: it records
/// each read of each connection as it came (so a test sees which lines arrived together)
/// and answers every request line with `answer`, until the client hangs up.
final class CannedDaemon: @unchecked Sendable {
    let socketPath: String
    private let listener: Int32
    private let lock = NSLock()
    private var readsSoFar: [Data] = []
    private let answer: @Sendable (IncomingRequest) -> Data

    /// - parameter answer: the answer line (without newline) to one request.
    init(in directory: URL, answer: @escaping @Sendable (IncomingRequest) -> Data) throws {
        socketPath = directory.appendingPathComponent("canned.sock").path
        self.answer = answer
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(socketPath.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 4) == 0 else {
            close(listener)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: socketPath])
        }
        Thread.detachNewThread { [self] in serve() }
    }

    /// Every read of every connection so far, in order.
    var reads: [Data] { lock.withLock { readsSoFar } }

    /// The methods of the request lines received so far.
    var methods: [String] {
        reads.reduce(Data(), +).split(separator: 0x0A).compactMap { line -> String? in
            guard case .single(.success(let request)) = WireCodec.requests(from: Data(line)) else { return nil }
            return request.method
        }
    }

    /// Stops accepting connections (the one being served ends when its client hangs up).
    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                close(listener)
                return
            }
            var framer = LineFramer()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(connection, &buffer, buffer.count)
                guard count > 0 else { break }
                lock.withLock { readsSoFar.append(Data(buffer[0..<count])) }
                for case .line(let line) in framer.append(buffer[0..<count]) {
                    guard case .single(.success(let request)) = WireCodec.requests(from: line) else { continue }
                    let reply = answer(request) + [0x0A]
                    _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            }
            close(connection)
        }
    }
}
