import Foundation

/// The resident memory an import may add to the process, measured from `/proc/self/statm`
/// (where that file is missing, nothing is measured and nothing is refused).
struct ImportMemoryBudget {
    let limitBytes: Int64
    private let baselineBytes: Int64?

    init(limitBytes: Int64) {
        self.limitBytes = limitBytes
        baselineBytes = Self.residentBytes()
    }

    /// - throws: `TransitError.limitExceeded` naming `file` when the process grew past the budget.
    func check(feed: String, file: String) throws {
        guard let baselineBytes, let now = Self.residentBytes(), now - baselineBytes > limitBytes else { return }
        throw TransitError.limitExceeded(feed: feed, file: file, limit: .importMemory(limit: limitBytes))
    }

    /// The process's resident set size now; `nil` where `/proc` is not mounted.
    static func residentBytes() -> Int64? {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        // "size resident shared ...", in pages.
        let fields = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int64(fields[1]) else { return nil }
        return pages * Int64(sysconf(Int32(_SC_PAGESIZE)))
    }
}
