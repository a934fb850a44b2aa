import Foundation

/// The lines a connection still has to send, oldest first, within a byte limit, so that a
/// client that stops reading costs the daemon a bounded amount of memory and never a thread.
///
/// Event notifications are droppable: when the limit is reached the oldest of them go first
/// (a slow watcher loses old events), and they have a smaller limit of their own,
/// `eventLimit`, so that many watchers that stop reading cost little. They wait in one
/// `EventRing` of at most `eventLimit` bytes, not one allocation each, and dropping one costs
/// no copying. An event that cannot fit even once every waiting event is gone (larger than
/// `eventLimit`, or than what answers leave of `limit`) is dropped alone. When answers alone
/// pass the limit, `append` says `.overflow` and the caller disconnects the client. A single
/// answer larger than the limit is still queued when nothing else is waiting (the daemon
/// already holds it in memory). A line whose first bytes went out is no longer dropped: it is
/// taken out as the line going out (`current`; an event is copied out of the ring), so a
/// watcher holds at most the ring's `eventLimit` bytes plus that one line.
///
/// ```swift
/// var queue = OutputQueue(limit: 1 << 20)
/// _ = queue.append(answer, droppable: false, completesRequest: true)
/// let sent = send(fd, ...); let answered = queue.markSent(sent)
/// ```
struct OutputQueue {
    /// A line that is never dropped (an answer), or a line going out.
    struct Line {
        var data: Data
        var completesRequest: Bool
    }

    enum Admission: Equatable {
        case queued
        /// Queued after dropping this many older droppable lines, or 1 for the new line itself.
        case dropped(Int)
        case overflow
    }

    /// What waits, in order: a line of its own, or this many of the oldest lines in `events`.
    private enum Entry {
        case line(Line)
        case events(Int)
    }

    let limit: Int
    /// Bytes of droppable lines (events) that may wait, within `limit`.
    let eventLimit: Int
    private var entries: [Entry] = []
    private var head = 0
    private var events: EventRing
    /// The line going out, taken off `entries` (or `events`) once part of it was sent, with how
    /// many of its bytes went.
    private var current: (line: Line, sent: Int)?
    private(set) var byteCount = 0
    /// Answers queued and not yet sent whole.
    private(set) var answerCount = 0

    init(limit: Int, eventLimit: Int? = nil) {
        self.limit = limit
        self.eventLimit = min(limit, eventLimit ?? limit)
        events = EventRing(capacity: self.eventLimit)
    }

    var isEmpty: Bool { current == nil && head == entries.count }

    /// Bytes allocated for waiting events: one block, at most `eventLimit`, however many went through.
    var eventBlockBytes: Int { events.allocatedBytes }

    /// Entries held, those already sent or dropped included: bounded however long the client
    /// does not read (tests look).
    var entriesHeld: Int { entries.count }

    /// Queues `data`, a whole line. It is never empty: `withUnsentBytes` promises at least one
    /// byte, and an empty line would stall the queue behind it. An event (`droppable`) never
    /// completes a request: only answers are counted in `answerCount`.
    mutating func append(_ data: Data, droppable: Bool, completesRequest: Bool) -> Admission {
        assert(!data.isEmpty, "an empty line would stall the queue")
        assert(!(droppable && completesRequest), "an event never completes a request")
        // Dropping the waiting events would not make room for it: it alone goes.
        if droppable, data.count > eventLimit || byteCount - events.byteCount + data.count > limit { return .dropped(1) }
        var dropped = 0
        while droppable, events.byteCount + data.count > eventLimit, dropOldestEvent() { dropped += 1 }
        if byteCount + data.count > limit {
            while byteCount + data.count > limit, dropOldestEvent() { dropped += 1 }
            if byteCount + data.count > limit && !isEmpty { return .overflow } // answers alone
        }
        if head == entries.count { // everything before was sent or dropped: start over
            entries.removeAll(keepingCapacity: true)
            head = 0
        }
        if droppable {
            _ = events.append(data) // within `eventLimit`, its capacity: made room above
            if entries.count > head, case .events(let count) = entries[entries.count - 1] {
                entries[entries.count - 1] = .events(count + 1)
            } else {
                entries.append(.events(1))
            }
        } else {
            entries.append(.line(Line(data: data, completesRequest: completesRequest)))
            if completesRequest { answerCount += 1 }
        }
        byteCount += data.count
        return dropped > 0 ? .dropped(dropped) : .queued
    }

    /// Calls `body` with unsent bytes of the oldest line, at least one (nil when empty).
    func withUnsentBytes<Result>(_ body: (UnsafeRawBufferPointer?) -> Result) -> Result {
        if let current {
            return current.line.data.withUnsafeBytes { raw in body(UnsafeRawBufferPointer(rebasing: raw[current.sent...])) }
        }
        guard head < entries.count else { return body(nil) }
        switch entries[head] {
        case .line(let line): return line.data.withUnsafeBytes { raw in body(raw) }
        case .events: return events.withOldest(body)
        }
    }

    /// Records `count` bytes sent; returns how many answers were sent whole.
    mutating func markSent(_ count: Int) -> Int {
        var remaining = count
        var answered = 0
        while remaining > 0 {
            if var going = current {
                let taken = min(going.line.data.count - going.sent, remaining)
                going.sent += taken
                remaining -= taken
                byteCount -= taken
                if going.sent == going.line.data.count {
                    current = nil
                    if going.line.completesRequest { answered += 1 }
                } else {
                    current = going
                }
                continue
            }
            guard head < entries.count else { break }
            switch entries[head] {
            case .line(let line):
                current = (line, 0)
                head += 1
            case .events(let waiting):
                let length = events.oldestLength ?? 0
                if remaining >= length { // sent whole: nothing to copy
                    remaining -= length
                    byteCount -= length
                } else { // its rest goes next, whatever is dropped meanwhile
                    current = (Line(data: events.oldest(), completesRequest: false), 0)
                }
                events.removeOldest()
                entries[head] = .events(waiting - 1)
            }
            skipEmptyRuns()
        }
        answerCount -= answered
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
            // Freed only once nothing at all waits: while an answer or the line going out still
            // waits the watcher is behind and more events are coming, and a block freed as soon
            // as its events went would be built again by doubling for the next one. A watcher
            // that caught up holds no large block (50 idle watchers: WatcherMemoryTests).
            if current == nil { events.releaseIfEmpty() }
        } else if head > 64 && head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
        return answered
    }

    /// Drops the oldest event waiting (never one partly sent: that one is `current`); false when none waits.
    private mutating func dropOldestEvent() -> Bool {
        guard let length = events.oldestLength,
              let index = entries[head...].firstIndex(where: { if case .events(let count) = $0 { count > 0 } else { false } }),
              case .events(let count) = entries[index] else { return false }
        entries[index] = .events(count - 1)
        events.removeOldest()
        byteCount -= length
        skipEmptyRuns()
        return true
    }

    private mutating func skipEmptyRuns() {
        while head < entries.count, case .events(0) = entries[head] { head += 1 }
    }
}
