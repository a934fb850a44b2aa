/// When a fixed-rate prober asks: the k-th question at `start + k·interval`, whatever the
/// answers take. A question that is due when the previous answer comes (the answer, or the
/// prober's wake-up, took longer than the interval) is asked at once, and so are the next ones
/// until the prober is back on schedule: a build whose answers come late is asked as often as
/// one whose answers do not, so the two builds' writers compete with the same load.
struct FixedRateSchedule {
    let start: UInt64
    let interval: UInt64
    /// Questions asked so far.
    private(set) var asked: UInt64 = 0
    /// Of them, those asked after their time (the prober catching up).
    private(set) var late: UInt64 = 0

    /// - parameters: nanoseconds (one clock); the first question is due at `start`.
    init(start: UInt64, interval: UInt64) {
        self.start = start
        self.interval = max(1, interval)
    }

    /// When the next question is due.
    var due: UInt64 { start + asked * interval }

    /// How long to wait at `now` before the next question: 0 when it is due or overdue.
    func wait(at now: UInt64) -> UInt64 { due > now ? due - now : 0 }

    /// Counts the question asked at `now`; one asked more than an interval after its time counts as late.
    mutating func record(askedAt now: UInt64) {
        if now >= due + interval { late += 1 }
        asked += 1
    }
}
