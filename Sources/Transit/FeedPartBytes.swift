import Foundation

/// Little-endian fields appended to a byte array: the packed sections of a `FeedPart` file
/// (stop times are most of a feed, and JSON would make them several times larger and slower).
struct FeedPartWriter {
    private(set) var bytes: [UInt8] = []

    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func double(_ value: Double) { integer(value.bitPattern) }

    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        integer(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    mutating func optionalString(_ value: String?) {
        integer(UInt8(value == nil ? 0 : 1))
        if let value { string(value) }
    }

    mutating func integers<T: FixedWidthInteger>(_ values: [T]) {
        integer(UInt32(values.count))
        bytes.reserveCapacity(bytes.count + values.count * MemoryLayout<T>.size)
        for value in values { integer(value) }
    }
}

/// Reads what `FeedPartWriter` wrote; a short or inconsistent file throws, so that the caller
/// parses the feed again rather than trusting it.
struct FeedPartReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var isAtEnd: Bool { offset == bytes.count }

    private static let damaged = TransitError.corruptTimetable("a kept feed part is cut short or damaged")

    mutating func integer<T: FixedWidthInteger>(_: T.Type = T.self) throws -> T {
        let size = MemoryLayout<T>.size
        guard offset + size <= bytes.count else { throw Self.damaged }
        defer { offset += size }
        return bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }

    mutating func double() throws -> Double { Double(bitPattern: try integer(UInt64.self)) }

    mutating func string() throws -> String {
        let count = Int(try integer(UInt32.self))
        guard offset + count <= bytes.count else { throw Self.damaged }
        defer { offset += count }
        return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
    }

    mutating func optionalString() throws -> String? {
        try integer(UInt8.self) == 0 ? nil : try string()
    }

    mutating func integers<T: FixedWidthInteger>(_: T.Type = T.self) throws -> [T] {
        let count = Int(try integer(UInt32.self))
        let size = MemoryLayout<T>.size
        guard offset + count * size <= bytes.count else { throw Self.damaged }
        defer { offset += count * size }
        let start = offset
        return bytes.withUnsafeBytes { raw in
            (0..<count).map { T(littleEndian: raw.loadUnaligned(fromByteOffset: start + $0 * size, as: T.self)) }
        }
    }

    /// The rest, from where reading stopped.
    mutating func remaining() -> ArraySlice<UInt8> {
        defer { offset = bytes.count }
        return bytes[offset...]
    }
}
