import Synchronization

/// A batch of requests cut into one contiguous lane per worker: each worker takes its own lane
/// from the front, and once it is empty helps the lane with the most left, from that lane's
/// far end. So requests next to each other in the batch go to the same worker, whose
/// `WaypointCache` then finds an end they share once (footpaths sorted by their first stop: each
/// stop's nearest road is looked up by one worker instead of by every worker), and no worker
/// idles while another has work left.
///
/// ```swift
/// let lanes = RoutinoBatchLanes(count: requests.count, lanes: 2)
/// while let index = lanes.next(lane: 0) { answer(requests[index]) }   // 0, 1, 2, … then stolen ones
/// ```
final class RoutinoBatchLanes: Sendable {
    private struct Lane {
        var front: Int
        var back: Int  // one past the last request left
        var left: Int { back - front }
    }

    private let lanes: Mutex<[Lane]>

    /// - parameter count: the batch's requests.
    /// - parameter lanes: one per worker (at least one).
    init(count: Int, lanes: Int) {
        let parts = max(1, lanes)
        self.lanes = Mutex((0..<parts).map { Lane(front: count * $0 / parts, back: count * ($0 + 1) / parts) })
    }

    /// The index of the next request for the worker of `lane`, or nil when every request is taken.
    /// Each index is given out exactly once (by `next` or `takeAll`).
    func next(lane: Int) -> Int? {
        lanes.withLock { lanes in
            let own = lane % lanes.count
            if lanes[own].left > 0 {
                defer { lanes[own].front += 1 }
                return lanes[own].front
            }
            guard let fullest = lanes.indices.max(by: { lanes[$0].left < lanes[$1].left }), lanes[fullest].left > 0 else {
                return nil
            }
            lanes[fullest].back -= 1
            return lanes[fullest].back
        }
    }

    /// Takes every request not yet given out (a batch dropped when the pool shuts down).
    func takeAll() -> [Int] {
        lanes.withLock { lanes in
            defer { for index in lanes.indices { lanes[index].front = lanes[index].back } }
            return lanes.flatMap { Array($0.front..<$0.back) }
        }
    }
}
