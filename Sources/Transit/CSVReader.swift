import Foundation

/// A streaming RFC 4180 reader tolerant of what real GTFS feeds contain: a UTF-8 byte order
/// mark, CRLF or LF line ends, quoted fields holding commas, doubled quotes and newlines,
/// blank lines, and stray quotes inside unquoted fields (kept literally).
///
/// Fields are handed out as byte ranges of one reused record buffer, so numbers and times
/// are parsed without building a `String` per field. A record longer than `maxRecordBytes`
/// is refused (`RecordTooLong`), so memory never grows with the longest line.
///
/// ```swift
/// var reader = CSVReader(source: member)
/// while let record = try reader.nextRecord() { print(record.string(0)) }
/// ```
struct CSVReader {
    private let source: any ByteChunkSource
    private var chunk: ArraySlice<UInt8> = []
    private var position = 0
    private var atStart = true
    private var finished = false
    private var record = CSVRecord()
    /// 1-based number of the line where the current record started, for messages.
    private(set) var lineNumber = 0
    private var nextLine = 1
    /// Bytes one record may span, counting quotes, separators and line ends.
    let maxRecordBytes: Int

    /// A record that went past `maxRecordBytes`; `line` is where it started.
    struct RecordTooLong: Error, Equatable {
        var line: Int
        var limit: Int
    }

    init(source: any ByteChunkSource, maxRecordBytes: Int = GTFSLimits().maxLineBytes) {
        self.source = source
        self.maxRecordBytes = maxRecordBytes
    }

    private mutating func nextByte() throws -> UInt8? {
        if position >= chunk.endIndex {
            guard !finished, let next = try source.nextChunk() else {
                finished = true
                return nil
            }
            chunk = next
            position = next.startIndex
            if position >= chunk.endIndex { return try nextByte() }
        }
        defer { position += 1 }
        return chunk[position]
    }

    /// The next non-blank record, or `nil` at the end of the input.
    mutating func nextRecord() throws -> CSVRecord? {
        while true {
            guard let parsed = try parseRecord() else { return nil }
            if parsed { return record }
        }
    }

    /// Parses one physical record into `record`; `false` for a blank line, `nil` at the end.
    private mutating func parseRecord() throws -> Bool? {
        record.reset()
        lineNumber = nextLine
        var inQuotes = false
        var quoteClosed = false   // just saw the closing quote of a quoted field
        var fieldHasContent = false
        var sawAnything = false
        var recordBytes = 0

        if atStart {
            atStart = false
            // Skip a UTF-8 BOM (EF BB BF) at the very beginning.
            if let first = try nextByte() {
                if first == 0xEF {
                    let second = try nextByte(), third = try nextByte()
                    if second != 0xBB || third != 0xBF {
                        record.append(first)
                        if let second { record.append(second) }
                        if let third { record.append(third) }
                        fieldHasContent = true
                        sawAnything = true
                    }
                } else {
                    position -= 1
                }
            }
        }

        while let byte = try nextByte() {
            recordBytes += 1
            if recordBytes > maxRecordBytes { throw RecordTooLong(line: lineNumber, limit: maxRecordBytes) }
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    inQuotes = false
                    quoteClosed = true
                } else {
                    if byte == UInt8(ascii: "\n") { nextLine += 1 }
                    record.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                sawAnything = true
                if quoteClosed {
                    // A doubled quote inside a quoted field: one literal quote.
                    record.append(byte)
                    inQuotes = true
                    quoteClosed = false
                } else if !fieldHasContent {
                    inQuotes = true
                    fieldHasContent = true
                } else {
                    record.append(byte) // stray quote in an unquoted field: keep it
                }
            case UInt8(ascii: ","):
                sawAnything = true
                record.endField()
                fieldHasContent = false
                quoteClosed = false
            case UInt8(ascii: "\n"):
                nextLine += 1
                if !sawAnything { return false }
                record.endField()
                return true
            case UInt8(ascii: "\r"):
                continue
            default:
                sawAnything = true
                quoteClosed = false
                fieldHasContent = true
                record.append(byte)
            }
        }
        if !sawAnything { return nil }
        record.endField()
        return true
    }
}

/// One CSV record: unescaped bytes plus field boundaries. Valid until the next read.
struct CSVRecord {
    fileprivate(set) var bytes: [UInt8] = []
    fileprivate(set) var ends: [Int] = []

    init() {
        bytes.reserveCapacity(256)
        ends.reserveCapacity(16)
    }

    fileprivate mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    fileprivate mutating func append(_ byte: UInt8) { bytes.append(byte) }
    fileprivate mutating func endField() { ends.append(bytes.count) }

    var count: Int { ends.count }

    private func range(_ index: Int) -> Range<Int>? {
        guard index >= 0, index < ends.count else { return nil }
        return (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// The field as text with surrounding spaces trimmed; "" when the column is absent.
    func string(_ index: Int?) -> String {
        guard let index, var r = range(index) else { return "" }
        while r.lowerBound < r.upperBound, bytes[r.lowerBound] == 0x20 { r = (r.lowerBound + 1)..<r.upperBound }
        while r.lowerBound < r.upperBound, bytes[r.upperBound - 1] == 0x20 { r = r.lowerBound..<(r.upperBound - 1) }
        return String(decoding: bytes[r], as: UTF8.self)
    }

    /// `nil` when the column is absent or the field is empty (GTFS optional fields).
    func optionalString(_ index: Int?) -> String? {
        let text = string(index)
        return text.isEmpty ? nil : text
    }

    /// A non-negative decimal integer, `nil` when empty or not a plain number.
    func int(_ index: Int?) -> Int? {
        guard let index, let r = range(index) else { return nil }
        var value = 0
        var digits = 0
        var negative = false
        for i in r {
            let b = bytes[i]
            if b == 0x20 && digits == 0 && !negative { continue }
            if b == 0x20 { break }
            if b == UInt8(ascii: "-") && digits == 0 && !negative { negative = true; continue }
            guard b >= 0x30, b <= 0x39 else { return nil }
            value = value &* 10 &+ Int(b - 0x30)
            digits += 1
            if digits > 18 { return nil }
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
    }

    func double(_ index: Int?) -> Double? {
        guard let text = optionalString(index) else { return nil }
        return Double(text)
    }

    /// A GTFS time `H:MM:SS` or `HH:MM:SS` (hours may exceed 24) in seconds after
    /// "noon minus 12 h" of the service day; `nil` when empty or malformed.
    func gtfsTime(_ index: Int?) -> Int? {
        guard let index, let r = range(index) else { return nil }
        var parts = (0, 0, 0)
        var part = 0
        var digits = 0
        var any = false
        for i in r {
            let b = bytes[i]
            if b == 0x20 { if any { break } else { continue } }
            any = true
            if b == UInt8(ascii: ":") {
                guard digits > 0, part < 2 else { return nil }
                part += 1
                digits = 0
                continue
            }
            guard b >= 0x30, b <= 0x39, digits < 3 else { return nil }
            let d = Int(b - 0x30)
            switch part {
            case 0: parts.0 = parts.0 * 10 + d
            case 1: parts.1 = parts.1 * 10 + d
            default: parts.2 = parts.2 * 10 + d
            }
            digits += 1
        }
        guard any, part == 2, digits > 0, parts.1 < 60, parts.2 < 60 else { return nil }
        return parts.0 * 3600 + parts.1 * 60 + parts.2
    }

    /// A GTFS date `YYYYMMDD` as a day number (days since 1970-01-01), `nil` when malformed.
    func gtfsDate(_ index: Int?) -> Int? {
        guard let index, let r = range(index) else { return nil }
        var value = 0
        var digits = 0
        for i in r where bytes[i] != 0x20 {
            let b = bytes[i]
            guard b >= 0x30, b <= 0x39 else { return nil }
            value = value * 10 + Int(b - 0x30)
            digits += 1
        }
        guard digits == 8 else { return nil }
        return ServiceDate.dayNumber(year: value / 10000, month: (value / 100) % 100, day: value % 100)
    }
}
