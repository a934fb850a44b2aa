import Foundation
import Glibc
import Synchronization
import WireProtocol

/// Open files a client passed on its connection (`SCM_RIGHTS`), waiting, in the order they
/// came, for the request that names them (`region.import` with `passed_files`). The
/// connection's reader fills it; the connection's task makes it `current` for its handlers.
/// At most `DescriptorPassing.maximumPerMessage` wait at once (more are closed as they
/// arrive); whatever no request took is closed with the connection.
final class PassedFiles: Sendable {
    @TaskLocal static var current: PassedFiles?

    /// Nil once the connection closed: what arrives later is closed at once.
    private let waiting = Mutex<[Int32]?>([])

    /// Reads from the socket like `read(2)`, keeping the descriptors that came with the bytes.
    func read(from socket: Int32, into buffer: inout [UInt8]) -> Int {
        let (count, descriptors) = DescriptorPassing.receive(on: socket, into: &buffer)
        guard !descriptors.isEmpty else { return count }
        waiting.withLock { waiting in
            for descriptor in descriptors {
                if let count = waiting?.count, count < DescriptorPassing.maximumPerMessage {
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
            defer { waiting?.removeFirst(count) }
            return Array(waiting?.prefix(count) ?? [])
        }
    }

    /// Closes what no request took; later arrivals are closed as they come.
    func closeAll() {
        waiting.withLock { waiting in
            waiting?.forEach { close($0) }
            waiting = nil
        }
    }
}

/// A `region.import`'s files that came open: a private folder of links, named like the user's
/// files (planetsplitter knows a format by its name), pointing at the open descriptors through
/// `/proc/PID/fd/N` (so planetsplitter, a child process, opens them too). `remove()` closes
/// the descriptors and deletes the folder.
struct PassedImportSources {
    let osm: URL
    let feeds: [URL]
    /// Each link's path → the path the user gave, which the region's manifest records.
    let givenPaths: [String: String]
    private let folder: URL
    private let descriptors: [Int32]

    init(osm: String, gtfs: [String], descriptors: [Int32], under dataDirectory: URL) throws {
        self.descriptors = descriptors
        folder = dataDirectory.appendingPathComponent(".passed-files-\(UUID().uuidString.prefix(8).lowercased())", isDirectory: true)
        var links: [URL] = []
        var givenPaths: [String: String] = [:]
        do {
            for (index, (path, descriptor)) in zip([osm] + gtfs, descriptors).enumerated() {
                // One folder per file: two feeds may have the same name.
                let link = folder.appendingPathComponent("\(index)/\(URL(fileURLWithPath: path).lastPathComponent)")
                try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/proc/\(getpid())/fd/\(descriptor)")
                links.append(link)
                givenPaths[link.path] = path
            }
        } catch {
            try? FileManager.default.removeItem(at: folder)
            descriptors.forEach { close($0) }
            throw error
        }
        self.osm = links[0]
        self.feeds = Array(links.dropFirst())
        self.givenPaths = givenPaths
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
        descriptors.forEach { close($0) }
    }
}
