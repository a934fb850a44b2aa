import FoundationEssentials

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
    private var overflowed = false

    public init(limit: Int = WireLimits.maximumLineBytes) {
        self.limit = limit
    }

    /// Bytes waiting for their newline.
    public var pendingByteCount: Int { buffer.count }

    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) -> [Event] where Bytes.Element == UInt8 {
        guard !overflowed else { return [] }
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        var start = buffer.startIndex
        while let newline = firstNewline(from: start) {
            if newline - start > limit {
                overflowed = true
                buffer = Data()
                events.append(.tooLong)
                return events
            }
            var line = Data(buffer[start..<newline])
            if line.last == 0x0D { line.removeLast() } // tolerate CRLF from hand-typed sessions
            events.append(.line(line))
            start = newline + 1
        }
        buffer = Data(buffer[start...])
        if buffer.count > limit {
            overflowed = true
            buffer = Data()
            events.append(.tooLong)
        }
        return events
    }

    /// Searched in the raw bytes: `Data`'s own `firstIndex(of:)` goes through its subscript
    /// byte by byte, several times slower.
    private func firstNewline(from start: Data.Index) -> Data.Index? {
        buffer.withUnsafeBytes { raw in
            raw[(start - buffer.startIndex)...].firstIndex(of: 0x0A).map { $0 + buffer.startIndex }
        }
    }
}
