import Foundation

/// One figure a suite measured: latencies (seconds) summarised as p50/p99, or a single value.
struct Figure: Sendable {
    var name: String
    var unit: String
    var value: Double
}

/// What one suite reports: figures in order, plus free-form notes (data sizes, counts).
struct SuiteReport: Sendable {
    var suite: String
    var figures: [Figure] = []
    var notes: [String: String] = [:]

    /// Adds p50 and p99 (milliseconds) and the throughput of a series of latencies in seconds.
    mutating func addLatencies(_ name: String, _ seconds: [Double]) {
        let sorted = seconds.sorted()
        figures.append(Figure(name: "\(name) p50", unit: "ms", value: percentile(sorted, 0.50) * 1000))
        figures.append(Figure(name: "\(name) p99", unit: "ms", value: percentile(sorted, 0.99) * 1000))
        figures.append(Figure(name: "\(name) samples", unit: "count", value: Double(sorted.count)))
    }

    mutating func add(_ name: String, _ value: Double, unit: String) {
        figures.append(Figure(name: name, unit: unit, value: value))
    }
}

/// Nearest-rank percentile of an ascending array; 0 for an empty one.
func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// Seconds taken by `body`, measured with the monotonic clock.
func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try body()
    return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

/// CPU seconds this thread spent in `body` (a shared machine's other work is left out,
/// unlike the wall clock); synchronous bodies only.
func cpuTime<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
    let start = now()
    let result = try body()
    return (result, now() - start)
}

func timeAsync<T>(_ body: () async throws -> T) async rethrows -> (T, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try await body()
    return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

/// The wall-clock seconds of `body` for each element, in order (a `map` of `timeAsync`,
/// which `map` itself cannot do: its closure is not async).
func secondsEach<S: Sequence, T>(_ elements: S, _ body: (S.Element) async throws -> T) async rethrows -> [Double] {
    var seconds: [Double] = []
    for element in elements { seconds.append(try await timeAsync { try await body(element) }.1) }
    return seconds
}

/// Peak resident memory of this process so far (VmHWM), in MiB.
func peakMemoryMiB() -> Double { procStatusMiB("VmHWM:") }

/// Resident memory of this process now (VmRSS), in MiB.
func residentMemoryMiB() -> Double { procStatusMiB("VmRSS:") }

/// A kB line of /proc/self/status, in MiB; 0 when unreadable.
private func procStatusMiB(_ key: String) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix(key) {
        let kib = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
        return kib / 1024
    }
    return 0
}

/// A small deterministic generator so every run measures the same inputs.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}

/// Where the shared data lives: `$USEFULMAP_SHARED`, else `../shared` beside the checkout.
func sharedDirectory() -> URL {
    if let path = ProcessInfo.processInfo.environment["USEFULMAP_SHARED"] {
        return URL(fileURLWithPath: path)
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        .appendingPathComponent("../shared").standardizedFileURL
}

func printReport(_ report: SuiteReport, json: Bool) {
    if json {
        var figures: [[String: Any]] = []
        for f in report.figures { figures.append(["name": f.name, "unit": f.unit, "value": f.value]) }
        let object: [String: Any] = ["suite": report.suite, "figures": figures, "notes": report.notes,
                                     "peak_memory_mib": peakMemoryMiB()]
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
           let line = String(data: data, encoding: .utf8) {
            print(line)
        }
        return
    }
    print("== \(report.suite) ==")
    for (key, value) in report.notes.sorted(by: { $0.key < $1.key }) { print("  \(key): \(value)") }
    for f in report.figures {
        print("  \(f.name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(String(format: "%12.3f", f.value)) \(f.unit)")
    }
    print("  peak memory (process so far)                 \(String(format: "%12.1f", peakMemoryMiB())) MiB")
}
