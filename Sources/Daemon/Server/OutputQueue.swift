import Foundation

/// The lines a connection still has to send, oldest first, within a byte limit, so that a
/// client that stops reading costs the daemon a bounded amount of memory and never a thread.
///
/// Event notifications are droppable: when the limit is reached the oldest of them go first
/// (a slow watcher loses old events), and they have a smaller limit of their own,
/// `eventLimit`, so that many watchers that stop reading cost little. When answers alone pass
/// the limit, `append` says
/// `.overflow` and the caller disconnects the client. A single answer larger than the limit is
/// still queued when nothing else is waiting (the daemon already holds it in memory).
///
/// ```swift
/// var queue = OutputQueue(limit: 1 << 20)
/// _ = queue.append(answer, droppable: false, completesRequest: true)
/// let sent = send(fd, ...); let answered = queue.markSent(sent)
/// ```
struct OutputQueue {
    struct Line {
        var data: Data
        var droppable: Bool
        var completesRequest: Bool
    }

    enum Admission: Equatable {
        case queued
        /// Queued after dropping this many older droppable lines, or 1 for the new line itself.
        case dropped(Int)
        case overflow
    }

    let limit: Int
    /// Bytes of droppable lines (events) that may wait, within `limit`.
    let eventLimit: Int
    private var lines: [Line] = []
    private var head = 0
    /// Bytes of `lines[head]` already handed to the kernel.
    private var sentOfHead = 0
    private(set) var byteCount = 0
    /// Bytes of droppable lines waiting (the one going out included).
    private var droppableByteCount = 0
    /// The most bytes that ever waited (a connection that held much gives memory back when it closes).
    private(set) var peakByteCount = 0
    /// Answers queued and not yet sent whole.
    private(set) var answerCount = 0

    init(limit: Int, eventLimit: Int? = nil) {
        self.limit = limit
        self.eventLimit = min(limit, eventLimit ?? limit)
    }

    var isEmpty: Bool { head == lines.count }

    mutating func append(_ data: Data, droppable: Bool, completesRequest: Bool) -> Admission {
        var dropped = 0
        if droppable, droppableByteCount + data.count > eventLimit {
            dropped = dropDroppable { queue in queue.droppableByteCount + data.count > queue.eventLimit }
            if droppableByteCount + data.count > eventLimit { return .dropped(dropped + 1) }
        }
        if byteCount + data.count > limit {
            dropped += dropDroppable { queue in queue.byteCount + data.count > queue.limit }
            if byteCount + data.count > limit && !isEmpty {
                if droppable { return .dropped(dropped + 1) }
                return .overflow
            }
        }
        lines.append(Line(data: data, droppable: droppable, completesRequest: completesRequest))
        if completesRequest { answerCount += 1 }
        byteCount += data.count
        if droppable { droppableByteCount += data.count }
        peakByteCount = max(peakByteCount, byteCount)
        return dropped > 0 ? .dropped(dropped) : .queued
    }

    /// Calls `body` with the unsent bytes of the oldest line (nil when empty).
    func withUnsentBytes<Result>(_ body: (UnsafeRawBufferPointer?) -> Result) -> Result {
        guard !isEmpty else { return body(nil) }
        return lines[head].data.withUnsafeBytes { raw in body(UnsafeRawBufferPointer(rebasing: raw[sentOfHead...])) }
    }

    /// Records `count` bytes sent; returns how many answers were sent whole.
    mutating func markSent(_ count: Int) -> Int {
        var remaining = count
        var answered = 0
        while remaining > 0, !isEmpty {
            let left = lines[head].data.count - sentOfHead
            let taken = min(left, remaining)
            remaining -= taken
            sentOfHead += taken
            byteCount -= taken
            if lines[head].droppable { droppableByteCount -= taken }
            if sentOfHead == lines[head].data.count {
                if lines[head].completesRequest { answered += 1 }
                head += 1
                sentOfHead = 0
            }
        }
        answerCount -= answered
        if head > 64 && head * 2 > lines.count {
            lines.removeFirst(head)
            head = 0
        }
        return answered
    }

    /// Removes the oldest droppable lines that have not started going out while `short` says
    /// there is not room enough; returns how many were removed.
    private mutating func dropDroppable(while short: (Self) -> Bool) -> Int {
        var dropped = 0
        var index = sentOfHead > 0 ? head + 1 : head
        while short(self), index < lines.count {
            if lines[index].droppable {
                byteCount -= lines[index].data.count
                droppableByteCount -= lines[index].data.count
                lines.remove(at: index)
                dropped += 1
            } else {
                index += 1
            }
        }
        return dropped
    }
}
