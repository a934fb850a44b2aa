import FoundationEssentials

/// A small strict JSON reader (RFC 8259) producing `JSONValue`. The wire reads every line with
/// it: Foundation's `JSONDecoder` can only learn an unknown value's type by trying each type
/// and catching the error, which made reading a plan several times slower than building it.
///
/// ```swift
/// let value = try JSONParser.parse(Data(#"{"id":1}"#.utf8))
/// ```
public enum JSONParser {
    /// Why a text is not JSON, with the byte offset where reading stopped.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// Nesting deeper than this is refused (a request never needs it; it bounds the stack).
    public static let maximumDepth = 128

    public static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            reader.skipWhitespace()
            let value = try reader.value(depth: 0)
            reader.skipWhitespace()
            guard reader.offset == reader.bytes.count else { throw reader.failure("unexpected text after the value") }
            return value
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0
        /// The members of the objects being read, innermost last: an object's dictionary is
        /// made once at its end with room for all of them, where inserting one by one grew
        /// and re-hashed it four times for a dozen keys (a tenth of `umctl status`'s parse).
        var keys: [String] = []
        var values: [JSONValue] = []

        func failure(_ reason: String) -> Failure { Failure(offset: offset, reason: reason) }

        var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < JSONParser.maximumDepth else { throw failure("nesting deeper than \(JSONParser.maximumDepth)") }
            guard let byte = current else { throw failure("unexpected end") }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw failure("unexpected character")
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let count = word.utf8CodeUnitCount
            guard offset + count <= bytes.count else { throw failure("unexpected end") }
            for index in 0..<count where bytes[offset + index] != word.utf8Start[index] {
                throw failure("invalid literal")
            }
            offset += count
        }

        mutating func object(depth: Int) throws -> JSONValue {
            offset += 1
            skipWhitespace()
            if current == UInt8(ascii: "}") { offset += 1; return .object([:]) }
            let first = keys.count
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw failure("expected a key") }
                let key = try string()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw failure("expected ':'") }
                offset += 1
                skipWhitespace()
                let member = try value(depth: depth + 1)
                keys.append(key)
                values.append(member)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): offset += 1
                case UInt8(ascii: "}"): offset += 1; return .object(members(from: first))
                default: throw failure("expected ',' or '}'")
                }
            }
        }

        /// The members read since `first`, as one dictionary (a repeated key: the last one
        /// wins), taken off the scratch lists.
        mutating func members(from first: Int) -> [String: JSONValue] {
            var members = [String: JSONValue](minimumCapacity: keys.count - first)
            for index in first..<keys.count { members[keys[index]] = values[index] }
            keys.removeSubrange(first...)
            values.removeSubrange(first...)
            return members
        }

        mutating func array(depth: Int) throws -> JSONValue {
            offset += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") { offset += 1; return .array(elements) }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): offset += 1
                case UInt8(ascii: "]"): offset += 1; return .array(elements)
                default: throw failure("expected ',' or ']'")
                }
            }
        }

        mutating func number() throws -> Double {
            let start = offset
            let negative = current == UInt8(ascii: "-")
            if negative { offset += 1 }
            guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { throw failure("invalid number") }
            let digitsStart = offset
            var whole: Int64 = 0
            if first == UInt8(ascii: "0") {
                offset += 1
            } else {
                while let digit = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) {
                    whole = whole &* 10 &+ Int64(digit - UInt8(ascii: "0"))
                    offset += 1
                }
            }
            // A whole number of up to 15 digits is exactly its Int64 as a Double, as `Double(text)`
            // reads it (but -0, which is -0.0): most numbers of an answer are counts and ids, and
            // reading each through a String and strtod cost `umctl status` 2 %.
            if offset - digitsStart <= 15, current != UInt8(ascii: "."), current != UInt8(ascii: "e"), current != UInt8(ascii: "E"),
               !(negative && whole == 0) {
                return Double(negative ? -whole : whole)
            }
            if current == UInt8(ascii: ".") {
                offset += 1
                guard let digit = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { throw failure("invalid number") }
                while let digit = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) { offset += 1 }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                offset += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
                guard let digit = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { throw failure("invalid number") }
                while let digit = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) { offset += 1 }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            guard let number = Double(text), number.isFinite else { throw failure("number out of range") }
            return number
        }

        mutating func string() throws -> String {
            offset += 1 // opening quote
            var runStart = offset
            var result = ""
            func flush(_ end: Int) {
                if end > runStart {
                    result += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<end]), as: UTF8.self)
                }
            }
            while true {
                guard let byte = current else { throw failure("unterminated string") }
                if byte == UInt8(ascii: "\"") {
                    flush(offset)
                    offset += 1
                    return result
                }
                if byte < 0x20 { throw failure("control character in a string") }
                if byte != UInt8(ascii: "\\") { offset += 1; continue }
                flush(offset)
                offset += 1
                guard let escape = current else { throw failure("unterminated string") }
                offset += 1
                switch escape {
                case UInt8(ascii: "\""): result += "\""
                case UInt8(ascii: "\\"): result += "\\"
                case UInt8(ascii: "/"): result += "/"
                case UInt8(ascii: "b"): result += "\u{08}"
                case UInt8(ascii: "f"): result += "\u{0C}"
                case UInt8(ascii: "n"): result += "\n"
                case UInt8(ascii: "r"): result += "\r"
                case UInt8(ascii: "t"): result += "\t"
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                            throw failure("unpaired surrogate")
                        }
                        offset += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw failure("unpaired surrogate")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw failure("invalid escape") }
                    result.unicodeScalars.append(scalar)
                default: throw failure("invalid escape")
                }
                runStart = offset
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard offset + 4 <= bytes.count else { throw failure("invalid \\u escape") }
            var code: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[offset]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw failure("invalid \\u escape")
                }
                code = code << 4 | UInt32(digit)
                offset += 1
            }
            return code
        }
    }
}
