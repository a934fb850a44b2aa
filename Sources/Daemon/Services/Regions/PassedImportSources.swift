import Foundation
import Glibc
import Streets

/// A `region.import`'s files that came open: a private folder of links, named like the user's
/// files (planetsplitter knows a format by its name), pointing at the open descriptors through
/// `/proc/PID/fd/N` (so planetsplitter, a child process, opens them too). A file that is not a
/// regular file (a pipe: `--osm <(zcat x.osm.gz)`) can be read only once, and an import reads
/// its sources several times, so it is spooled into the folder instead. An OSM file whose name
/// has no `.osm` / `.pbf` ending (`/dev/fd/63`) is named by its content. `remove()` closes the
/// descriptors and deletes the folder.
struct PassedImportSources {
    let osm: URL
    let feeds: [URL]
    /// Each link's path → the path the user gave, which the region's manifest records.
    let givenPaths: [String: String]
    private let folder: URL
    private let descriptors: [Int32]

    /// Folders of this kind start with this (what a crash left is removed at start-up).
    static let folderPrefix = ".passed-files-"

    /// Blocks while a pipe is spooled: call it off the shared pool (`CPUWorkPool.blocking`).
    /// - parameter limits: each pipe's copy stops at its kind's size limit, or where it would
    ///   leave less than `minimumFreeBytes` free on the data directory's disk.
    /// - parameter isCancelled: polled while a pipe is copied; true stops it (`CancellationError`).
    /// - throws: `DaemonError.invalidParams` for a file not open for reading; `StreetsError`
    ///   (`source_too_large`, `disk_full`, `import_failed`) naming the file the user gave.
    init(osm: String, gtfs: [String], descriptors: [Int32], under dataDirectory: URL,
         limits: ImportSourceLimits = ImportSourceLimits(), isCancelled: @escaping () -> Bool = { false }) throws {
        self.descriptors = descriptors
        folder = dataDirectory.appendingPathComponent(Self.folderPrefix + UUID().uuidString.prefix(8).lowercased(), isDirectory: true)
        var links: [URL] = []
        var givenPaths: [String: String] = [:]
        do {
            let sizeLimits = [limits.osm] + gtfs.map { _ in limits.feed }
            for (index, (path, descriptor)) in zip([osm] + gtfs, descriptors).enumerated() {
                // Its link in /proc opens the file anew, for reading, whatever the client may do with it.
                try Self.checkReadable(descriptor, given: path)
                // One folder per file: two feeds may have the same name.
                let directory = folder.appendingPathComponent("\(index)", isDirectory: true)
                var status = stat()
                guard fstat(descriptor, &status) == 0 else {
                    throw StreetsError.sourceNotFound("\(path) (\(String(cString: strerror(errno))))")
                }
                let given = URL(fileURLWithPath: path).lastPathComponent
                let link: URL
                // Foundation's errors would name the daemon's own folder: each step says what failed, for the user's file.
                try Self.step("prepare the import of \(path)") {
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                }
                if status.st_mode & S_IFMT == S_IFREG {
                    link = directory.appendingPathComponent(index == 0 ? Self.osmName(given, head: Self.head(of: descriptor)) : given)
                    try Self.step("prepare the import of \(path)") {
                        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/proc/\(getpid())/fd/\(descriptor)")
                    }
                } else {
                    let spooled = directory.appendingPathComponent("spooled")
                    let head = try Self.spool(descriptor, to: spooled, given: path, limit: sizeLimits[index],
                                              minimumFreeBytes: limits.minimumFreeBytes, isCancelled: isCancelled)
                    link = directory.appendingPathComponent(index == 0 ? Self.osmName(given, head: head) : given)
                    try Self.step("keep the copy of \(path)") { try FileManager.default.moveItem(at: spooled, to: link) }
                }
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

    /// `error` as the user should read it: each path the daemon read a source through (its
    /// link, or the `/proc/PID/fd/N` behind it) replaced by the path the user gave, the error's
    /// code kept. A feed's or planetsplitter's message names the file it opened, which is ours.
    func namingTheUsersFiles(_ error: Error) -> Error {
        if error is CancellationError { return error }
        var wire = RequestDispatcher.wireError(from: error)
        let message = namingTheUsersFiles(wire.message)
        guard message != wire.message else { return error }
        wire.message = message
        return wire
    }

    /// `text` (an error message, planetsplitter's progress) with the user's paths for ours.
    func namingTheUsersFiles(_ text: String) -> String {
        var text = text
        for (link, given) in givenPaths.sorted(by: { $0.key.count > $1.key.count }) {
            text = text.replacingOccurrences(of: link, with: given)
        }
        // Longest first: `/proc/1/fd/12` is not `/proc/1/fd/1` followed by a 2.
        for (descriptor, given) in zip(descriptors, [osmGiven] + feedsGiven).sorted(by: { $0.0 > $1.0 }) {
            text = text.replacingOccurrences(of: "/proc/\(getpid())/fd/\(descriptor)", with: given)
        }
        return text
    }

    private var osmGiven: String { givenPaths[osm.path] ?? osm.path }
    private var feedsGiven: [String] { feeds.map { givenPaths[$0.path] ?? $0.path } }

    /// Removes the folders an import that was killed left behind (a pipe's copy may be large).
    static func removeLeftovers(under dataDirectory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.path)) ?? []
        for name in names where name.hasPrefix(folderPrefix) {
            try? FileManager.default.removeItem(at: dataDirectory.appendingPathComponent(name))
        }
    }

    /// Runs a file-system step; its error becomes `import_failed` saying `what`, without paths of the daemon's.
    private static func step(_ what: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            let reason = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map { String(cString: strerror(Int32($0.code))) }
            throw StreetsError.importFailed(phase: "reading sources", message: "cannot \(what)" + (reason.map { ": \($0)" } ?? ""))
        }
    }

    /// Linux's `O_PATH`, which Glibc's module leaves out (it needs `_GNU_SOURCE`).
    static let pathOnly: Int32 = 0o10_000_000

    /// - throws: `DaemonError.invalidParams` naming the file when `descriptor` was not opened
    ///   for reading (`O_WRONLY`, or `O_PATH`, which reads nothing).
    static func checkReadable(_ descriptor: Int32, given: String) throws {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0 else {
            throw DaemonError.invalidParams("\(given) came as a file that cannot be used: \(String(cString: strerror(errno)))")
        }
        if flags & pathOnly != 0 {
            throw DaemonError.invalidParams("\(given) was passed as a path only (O_PATH), not open for reading; pass it open with O_RDONLY")
        }
        if flags & O_ACCMODE == O_WRONLY {
            throw DaemonError.invalidParams("\(given) was passed open for writing only (O_WRONLY); pass it open for reading")
        }
    }

    /// Bytes enough to tell PBF from XML.
    static let headLength = 64

    /// `given`, or for a name without an OSM ending, `given` with the ending its content has: a
    /// PBF file's first block is named `OSMHeader`; XML starts with `<` (after blanks or a BOM).
    static func osmName(_ given: String, head: [UInt8]) -> String {
        let lowercased = given.lowercased()
        if lowercased.hasSuffix(".pbf") || lowercased.hasSuffix(".osm") { return given }
        if head.count >= 9, (0...(head.count - 9)).contains(where: { Array(head[$0..<($0 + 9)]) == Array("OSMHeader".utf8) }) {
            return given + ".osm.pbf"
        }
        let text = head.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return text.first == UInt8(ascii: "<") ? given + ".osm" : given
    }

    /// The first bytes of a regular file, read without moving its offset.
    static func head(of descriptor: Int32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: headLength)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, headLength, 0) }
        return Array(bytes.prefix(max(0, count)))
    }

    /// Copies everything `descriptor` gives into a new file at `destination`; returns its first bytes.
    /// - throws: naming the file the user gave: `StreetsError.sourceTooLarge` past `limit`,
    ///   `.diskFull` where a write would leave less than `minimumFreeBytes` free (or the disk is
    ///   full), `.importFailed` for a read error. The caller removes the partial copy.
    static func spool(_ descriptor: Int32, to destination: URL, given: String, limit: SourceSizeLimit,
                      minimumFreeBytes: Int64, isCancelled: () -> Bool = { false }) throws -> [UInt8] {
        let output = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw failure("cannot create a copy of \(given) in the data directory") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var head: [UInt8] = []
        var copied: Int64 = 0
        let noRoom = StreetsError.diskFull("copying \(given) (not a regular file) would leave less than \(minimumFreeBytes >> 20) MiB free "
            + "on the disk of the data directory (setting min_free_mb); the copy was stopped and removed")
        while true {
            if isCancelled() { throw CancellationError() }
            // A pipe may stay silent: wait a little at a time, so a cancelled request stops.
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 250) == 0 { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw failure("cannot read \(given)") }
            if count == 0 { return head }
            if head.count < headLength { head += buffer[0..<min(count, headLength - head.count)] }
            copied += Int64(count)
            guard copied <= limit.bytes else { throw limit.refusingCopy(of: given) }
            if let free = freeBytes(at: output), free - Int64(count) < minimumFreeBytes { throw noRoom }
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else {
                    if errno == ENOSPC { throw noRoom }
                    throw failure("cannot copy \(given)")
                }
                written += result
            }
        }
    }

    /// Bytes an unprivileged writer may still use on the file system of `descriptor`; nil when
    /// the file system does not say (the write's own ENOSPC still stops the copy).
    static func freeBytes(at descriptor: Int32) -> Int64? {
        var status = statvfs()
        guard fstatvfs(descriptor, &status) == 0 else { return nil }
        return Int64(status.f_bavail) * Int64(status.f_frsize)
    }

    private static func failure(_ message: String) -> StreetsError {
        let reason = String(cString: strerror(errno))
        return .importFailed(phase: "reading sources", message: "\(message): \(reason)")
    }
}
