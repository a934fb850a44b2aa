import FoundationEssentials
import Glibc

/// Splits a byte stream into newline-terminated lines, refusing any line over the limit
/// before it is buffered whole (a client cannot make the daemon hold more than the limit).
///
/// ```swift
/// var framer = LineFramer()
/// for event in framer.append(bytes) { ... }   // .line(Data) or .tooLong
/// ```
public struct LineFramer: Sendable {
    public enum Event: Hashable, Sendable {
        case line(Data)
        /// The current line passed the limit. The caller should answer and close the connection;
        /// the framer discards everything after this.
        case tooLong
    }

    public let limit: Int
    private var buffer = Data()
    /// Where the bytes not yet split off start.
    private var start = 0
    private var overflowed = false

    public init(limit: Int = WireLimits.maximumLineBytes) {
        self.limit = limit
    }

    /// Bytes not yet split off.
    public var pendingByteCount: Int { buffer.endIndex - start }

    /// Adds the bytes and splits off every line they complete.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) -> [Event] where Bytes.Element == UInt8 {
        add(bytes)
        var events: [Event] = []
        while let event = nextEvent() { events.append(event) }
        return events
    }

    /// Adds the bytes without splitting them: `nextEvent()` takes the lines one at a time, as a
    /// client that waits for one answer does (no array of events, no queue of lines: each is
    /// a generic type the runtime builds in every umctl process).
    public mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        guard !overflowed else { return }
        buffer.append(contentsOf: bytes)
    }

    /// The next line the bytes added so far complete, `.tooLong` once when a line passes the
    /// limit (then nil for ever), or nil until more bytes come.
    public mutating func nextEvent() -> Event? {
        guard !overflowed else { return nil }
        guard let newline = firstNewline(from: start) else {
            if start != buffer.startIndex { // drop what was split off, once per wait for more bytes
                buffer = Data(buffer[start...])
                start = buffer.startIndex
            }
            if buffer.count > limit { return overflow() }
            return nil
        }
        if newline - start > limit { return overflow() }
        var line = Data(buffer[start..<newline])
        if line.last == 0x0D { line.removeLast() } // tolerate CRLF from hand-typed sessions
        start = newline + 1
        return .line(line)
    }

    private mutating func overflow() -> Event {
        overflowed = true
        buffer = Data()
        start = buffer.startIndex
        return .tooLong
    }

    /// Searched in the raw bytes with `memchr` (many bytes at a time): `Data`'s own
    /// `firstIndex(of:)` goes through its subscript byte by byte, and even a loop over the raw
    /// bytes was 12 instructions a byte, 2.5 % of a whole `umctl status`.
    private func firstNewline(from start: Data.Index) -> Data.Index? {
        buffer.withUnsafeBytes { raw in
            let from = start - buffer.startIndex
            guard let base = raw.baseAddress, from < raw.count, let found = memchr(base + from, 0x0A, raw.count - from) else { return nil }
            return buffer.startIndex + (UnsafeRawPointer(found) - base)
        }
    }
}
