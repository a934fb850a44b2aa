import Foundation

/// The event lines waiting for one client, oldest first, in one block of bytes used as a ring
/// that grows (doubling) up to `capacity`; its owner frees a large block (`releaseIfEmpty`).
///
/// A watcher that stops reading thus holds one block of at most `capacity` bytes rather than an
/// allocation per event: 50 such watchers each holding ~1,700 small `Data`s (two allocations
/// each, ~300 bytes for a 180-byte line), allocated and freed in turn by the pool's threads,
/// took the daemon from ~42 MiB to 92–103 MiB for 12.5 MiB of events (docs/benchmarks-history.md,
/// session 34). Dropping the oldest line moves an index.
///
/// A line may wrap around the end of the block, and a send may take only part of it, so the
/// oldest line goes out as `OutputQueue` sends it:
///
/// ```swift
/// var ring = EventRing(capacity: 256 << 10)
/// while !ring.append(line) { ring.removeOldest() } // full: the oldest lines go first
/// let length = ring.oldestLength!
/// let sent = ring.withOldest { bytes in send(fd, bytes!.baseAddress, bytes!.count, 0) } // up to the wrap
/// guard sent > 0 else { return } // nothing went: the line stays, whole
/// if sent < length { rest = ring.oldest().dropFirst(sent) } // the rest goes out from a copy
/// ring.removeOldest()
/// ```
struct EventRing {
    let capacity: Int
    private var storage: [UInt8] = []
    /// Index in `storage` of the oldest line's first byte.
    private var start = 0
    /// Bytes of the lines waiting.
    private(set) var byteCount = 0
    /// The waiting lines' lengths, oldest first from `first`.
    private var lengths: [Int] = []
    private var first = 0

    /// Storage `releaseIfEmpty` keeps: a watcher that keeps up reuses it.
    private static let keptWhenEmpty = 16 << 10
    private static let smallest = 4 << 10

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { lengths.count - first }
    var isEmpty: Bool { count == 0 }

    /// Bytes the ring holds allocated (never more than `capacity`).
    var allocatedBytes: Int { storage.count }

    /// The oldest line's length (nil when empty).
    var oldestLength: Int? { isEmpty ? nil : lengths[first] }

    /// Appends `line`; false, with nothing changed, when it does not fit within `capacity`.
    mutating func append(_ line: Data) -> Bool {
        guard byteCount + line.count <= capacity else { return false }
        if byteCount + line.count > storage.count { grow(toHold: byteCount + line.count) }
        if !line.isEmpty {
            let end = (start + byteCount) % storage.count
            let firstPart = min(line.count, storage.count - end)
            storage.withUnsafeMutableBytes { ring in
                line.copyBytes(to: UnsafeMutableRawBufferPointer(rebasing: ring[end..<(end + firstPart)]), from: line.startIndex..<(line.startIndex + firstPart))
                if firstPart < line.count {
                    line.copyBytes(to: UnsafeMutableRawBufferPointer(rebasing: ring[0..<(line.count - firstPart)]),
                                   from: (line.startIndex + firstPart)..<line.endIndex)
                }
            }
        }
        lengths.append(line.count)
        byteCount += line.count
        return true
    }

    /// Calls `body` with the oldest line's bytes as far as they run before the ring wraps (all of
    /// them unless the line wraps), or nil when empty.
    func withOldest<Result>(_ body: (UnsafeRawBufferPointer?) -> Result) -> Result {
        guard let length = oldestLength else { return body(nil) }
        let contiguous = min(length, storage.count - start)
        return storage.withUnsafeBytes { ring in body(UnsafeRawBufferPointer(rebasing: ring[start..<(start + contiguous)])) }
    }

    /// A copy of the oldest line, wrapped or not (empty when the ring is).
    func oldest() -> Data {
        guard let length = oldestLength else { return Data() }
        var copy = Data(capacity: length)
        copyWaiting(from: start, count: length) { part in copy.append(part.assumingMemoryBound(to: UInt8.self)) }
        return copy
    }

    mutating func removeOldest() {
        guard let length = oldestLength else { return }
        first += 1
        byteCount -= length
        if isEmpty {
            lengths.removeAll(keepingCapacity: true)
            first = 0
            start = 0
            return
        }
        start = (start + length) % storage.count
        if first > 64, first * 2 > lengths.count {
            lengths.removeFirst(first)
            first = 0
        }
    }

    /// Frees a block larger than `keptWhenEmpty` when no line waits; nothing otherwise.
    mutating func releaseIfEmpty() {
        if isEmpty, storage.count > Self.keptWhenEmpty { storage = [] }
    }

    /// Moves the waiting bytes, in order, to the start of a larger block.
    private mutating func grow(toHold needed: Int) {
        let size = min(capacity, max(needed, Self.smallest, storage.count * 2))
        var larger = [UInt8](repeating: 0, count: size)
        var end = 0
        larger.withUnsafeMutableBytes { target in
            copyWaiting(from: start, count: byteCount) { part in
                UnsafeMutableRawBufferPointer(rebasing: target[end..<(end + part.count)]).copyMemory(from: part)
                end += part.count
            }
        }
        storage = larger
        start = 0
    }

    /// Calls `part` with the `count` waiting bytes from `offset` in `storage` in at most two
    /// contiguous pieces: up to the end of the block, then on from its start.
    private func copyWaiting(from offset: Int, count: Int, _ part: (UnsafeRawBufferPointer) -> Void) {
        guard count > 0 else { return }
        let firstPart = min(count, storage.count - offset)
        storage.withUnsafeBytes { ring in
            part(UnsafeRawBufferPointer(rebasing: ring[offset..<(offset + firstPart)]))
            if firstPart < count { part(UnsafeRawBufferPointer(rebasing: ring[0..<(count - firstPart)])) }
        }
    }
}
