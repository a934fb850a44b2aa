import Foundation

/// Lets a repeating log line through at most once per `interval` seconds and counts the rest,
/// so that a condition that lasts (out of descriptors) cannot flood the log.
///
/// ```swift
/// if let suppressed = throttle.admit() { logger.warning("accept failed", ["suppressed": String(suppressed)]) }
/// ```
struct LogThrottle {
    let interval: Double
    private var last: UInt64?
    private var suppressed = 0

    init(interval: Double) {
        self.interval = interval
    }

    /// The number of lines suppressed since the last one let through, or nil to suppress this one.
    mutating func admit(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Int? {
        if let last, Double(now - last) < interval * 1e9 {
            suppressed += 1
            return nil
        }
        last = now
        defer { suppressed = 0 }
        return suppressed
    }
}
