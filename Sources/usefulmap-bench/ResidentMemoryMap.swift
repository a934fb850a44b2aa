import Foundation

/// What holds a process's resident memory, read from `/proc/PID/smaps`: the resident MiB of
/// each kind of mapping (anonymous memory, where malloc's arenas and large allocations live;
/// the `brk` heap; stacks; shared libraries; each data file mapped, by its name).
struct ResidentMemoryMap {
    /// Kind → resident MiB.
    var residentMiB: [String: Double] = [:]
    /// Anonymous mappings of 64 MiB or more of address space: malloc arenas (glibc reserves
    /// 64 MiB per arena and keeps what it touched), or single large allocations.
    var largeAnonymousMappings = 0

    init?(pid: Int32) {
        // Read to the end: /proc files report size 0, and reading by the size gets only the start.
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps"), let data = try? handle.readToEnd(),
              let text = String(data: data, encoding: .utf8) else { return nil }
        try? handle.close()
        var kind = "other"
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), fields.count >= 5, !range.hasSuffix(":") {
                let path = fields.dropFirst(5).joined(separator: " ")
                kind = Self.kind(of: path)
                let bounds = range.split(separator: "-").compactMap { UInt64($0, radix: 16) }
                if path.isEmpty, bounds.count == 2, bounds[1] - bounds[0] >= 64 << 20 { largeAnonymousMappings += 1 }
            } else if fields.first == "Rss:", fields.count >= 2, let kib = Double(fields[1]) {
                residentMiB[kind, default: 0] += kib / 1024
            }
        }
    }

    private static func kind(of path: String) -> String {
        if path.isEmpty { return "anonymous" }
        if path == "[heap]" { return "heap (brk)" }
        if path.hasPrefix("[stack") { return "stacks" }
        if path.hasPrefix("[") { return "other" }
        let name = (path as NSString).lastPathComponent
        if name.hasSuffix(".so") || name.contains(".so.") { return "shared libraries" }
        if name.hasPrefix("usefulmapd") { return "the executable" }
        return "file \(name)"
    }

    /// "anonymous 120.3, heap (brk) 2.1, …" largest first, kinds under 0.5 MiB left out.
    var summary: String {
        residentMiB.filter { $0.value >= 0.5 }.sorted { $0.value > $1.value }
            .map { "\($0.key) \(String(format: "%.1f", $0.value))" }.joined(separator: ", ")
            + " MiB; \(largeAnonymousMappings) anonymous mappings of ≥ 64 MiB"
    }
}
