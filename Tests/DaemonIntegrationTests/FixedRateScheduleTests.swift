@testable import usefulmap_bench
import XCTest

/// The mixed load's fixed-rate prober (`--status-every-ms=N`) asks the k-th `status` k·N ms
/// after the first whatever the answers take: one that is late is asked at once, and the next
/// ones too until it is back on schedule, so a build whose answers come late is asked as often.
final class FixedRateScheduleTests: XCTestCase {
    /// The times (ms) a prober following `schedule` asks at, each answer taking `answers[i]` ms
    /// (the last one repeated), until `until` ms.
    private func askTimes(every interval: UInt64, answers: [UInt64], until: UInt64) -> (times: [UInt64], late: UInt64) {
        var schedule = FixedRateSchedule(start: 0, interval: interval)
        var now: UInt64 = 0, times: [UInt64] = []
        while now < until {
            schedule.record(askedAt: now)
            times.append(now)
            now += answers[min(times.count - 1, answers.count - 1)]
            now += schedule.wait(at: now)
        }
        return (times, schedule.late)
    }

    func testAnsweredInTimeTheProberAsksExactlyEveryInterval() {
        let asked = askTimes(every: 5, answers: [1], until: 50)
        XCTAssertEqual(asked.times, [0, 5, 10, 15, 20, 25, 30, 35, 40, 45])
        XCTAssertEqual(asked.late, 0)
    }

    func testAfterALateAnswerTheProberAsksAtOnceUntilBackOnSchedule() {
        // The third answer takes 12 ms: the questions due at 15 and 20 are asked at once, at 22 and 23
        // (the prober before asked at 22, then 27, 32 …: one question fewer in every 50 ms).
        let asked = askTimes(every: 5, answers: [1, 1, 12, 1], until: 50)
        XCTAssertEqual(asked.times, [0, 5, 10, 22, 23, 25, 30, 35, 40, 45])
        XCTAssertEqual(asked.times.count, 10, "as many questions as without the late answer")
        XCTAssertEqual(asked.late, 1, "the one due at 15 was asked over an interval late")
    }

    func testAProberWhoseAnswersAllComeLateIsAskedAsOftenAsTheyAllow() {
        // Every answer takes 6 ms at a 5 ms rate: asked back to back, never waiting.
        let asked = askTimes(every: 5, answers: [6], until: 60)
        XCTAssertEqual(asked.times, [0, 6, 12, 18, 24, 30, 36, 42, 48, 54])
    }
}
