import Foundation
import Glibc
import Synchronization
import WireProtocol

/// Open files a client passed on its connection (`SCM_RIGHTS`), waiting, in the order they
/// came, for the request that names them (`region.import` with `passed_files`). The
/// connection's reader fills it; the connection's task makes it `current` for its handlers.
/// At most `DescriptorPassing.maximumPerMessage` wait at once (more are closed as they
/// arrive), and no more than the daemon's `DescriptorBudget` allows in all connections
/// together; whatever no request took is closed with the connection.
final class PassedFiles: Sendable {
    @TaskLocal static var current: PassedFiles?

    /// Nil once the connection closed: what arrives later is closed at once.
    private let waiting = Mutex<[Int32]?>([])
    private let budget: DescriptorBudget?

    init(budget: DescriptorBudget? = nil) {
        self.budget = budget
    }

    /// Reads from the socket like `read(2)`, keeping the descriptors that came with the bytes.
    func read(from socket: Int32, into buffer: inout [UInt8]) -> Int {
        let (count, descriptors) = DescriptorPassing.receive(on: socket, into: &buffer)
        guard !descriptors.isEmpty else { return count }
        waiting.withLock { waiting in
            for descriptor in descriptors {
                if let count = waiting?.count, count < DescriptorPassing.maximumPerMessage, budget?.takePassedFile() ?? true {
                    waiting?.append(descriptor)
                } else {
                    close(descriptor)
                }
            }
        }
        return count
    }

    /// The next `count` descriptors, now owned by the caller.
    /// - throws: `DaemonError.invalidParams` when fewer came.
    func take(_ count: Int) throws -> [Int32] {
        try waiting.withLock { waiting in
            let available = waiting?.count ?? 0
            guard available >= count else {
                throw DaemonError.invalidParams("passed_files is set, but \(available) of the \(count) open files came with the request")
            }
            defer {
                waiting?.removeFirst(count)
                budget?.releasePassedFiles(count)
            }
            return Array(waiting?.prefix(count) ?? [])
        }
    }

    /// Closes what no request took; later arrivals are closed as they come.
    func closeAll() {
        waiting.withLock { waiting in
            waiting?.forEach { close($0) }
            budget?.releasePassedFiles(waiting?.count ?? 0)
            waiting = nil
        }
    }
}
