import Foundation

/// Protobuf wire format read and written by hand, for feeds no encoder would make: a field of
/// 2^64-1 where the schema says int64, a length-delimited field read as a message and mutated
/// inside. Knows no schema: a length-delimited field that parses whole as fields is taken as a
/// message (a short string sometimes is too, which is fine for mutation).
public struct ProtobufMessage: Hashable, Sendable {
    public enum Value: Hashable, Sendable {
        case varint(UInt64)
        case fixed64(UInt64)
        case fixed32(UInt32)
        case bytes(Data)
        case message(ProtobufMessage)
    }

    public struct Field: Hashable, Sendable {
        public var number: Int
        public var value: Value

        public init(_ number: Int, _ value: Value) {
            self.number = number
            self.value = value
        }
    }

    public var fields: [Field]

    public init(_ fields: [Field]) { self.fields = fields }

    // MARK: - Building

    public static func varint(_ number: Int, _ value: UInt64) -> Field { Field(number, .varint(value)) }
    public static func signed(_ number: Int, _ value: Int64) -> Field { Field(number, .varint(UInt64(bitPattern: value))) }
    public static func string(_ number: Int, _ text: String) -> Field { Field(number, .bytes(Data(text.utf8))) }
    public static func message(_ number: Int, _ fields: [Field]) -> Field { Field(number, .message(ProtobufMessage(fields))) }

    // MARK: - Writing

    public var encoded: Data { Data(bytes) }

    /// The wire bytes, built in one array (a `Data` grown byte by byte is slow in a debug build).
    var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for field in fields {
            switch field.value {
            case .varint(let value):
                Self.append(varint: UInt64(field.number) << 3, to: &out)
                Self.append(varint: value, to: &out)
            case .fixed64(let value):
                Self.append(varint: UInt64(field.number) << 3 | 1, to: &out)
                withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
            case .fixed32(let value):
                Self.append(varint: UInt64(field.number) << 3 | 5, to: &out)
                withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
            case .bytes(let data):
                Self.append(varint: UInt64(field.number) << 3 | 2, to: &out)
                Self.append(varint: UInt64(data.count), to: &out)
                out.append(contentsOf: data)
            case .message(let message):
                let inner = message.bytes
                Self.append(varint: UInt64(field.number) << 3 | 2, to: &out)
                Self.append(varint: UInt64(inner.count), to: &out)
                out.append(contentsOf: inner)
            }
        }
        return out
    }

    static func append(varint value: UInt64, to out: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }

    // MARK: - Reading

    /// The fields of `data`; nil when it is not wire format throughout.
    public init?(parsing data: Data, depth: Int = 0) {
        let bytes = [UInt8](data)
        var position = 0
        var fields: [Field] = []
        func varint() -> UInt64? {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 70, by: 7) {
                guard position < bytes.count else { return nil }
                let byte = bytes[position]
                position += 1
                guard shift < 64 else { return nil }
                value |= UInt64(byte & 0x7F) << UInt64(shift)
                if byte < 0x80 { return value }
            }
            return nil
        }
        while position < bytes.count {
            guard let key = varint(), key >> 3 > 0, key >> 3 < 1 << 29 else { return nil }
            let number = Int(key >> 3)
            switch key & 7 {
            case 0:
                guard let value = varint() else { return nil }
                fields.append(Field(number, .varint(value)))
            case 1:
                guard position + 8 <= bytes.count else { return nil }
                let value = bytes[position..<position + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                position += 8
                fields.append(Field(number, .fixed64(value)))
            case 5:
                guard position + 4 <= bytes.count else { return nil }
                let value = bytes[position..<position + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                position += 4
                fields.append(Field(number, .fixed32(value)))
            case 2:
                guard let length = varint(), length <= UInt64(bytes.count - position) else { return nil }
                let body = Data(bytes[position..<position + Int(length)])
                position += Int(length)
                if depth < 8, !body.isEmpty, let inner = ProtobufMessage(parsing: body, depth: depth + 1) {
                    fields.append(Field(number, .message(inner)))
                } else {
                    fields.append(Field(number, .bytes(body)))
                }
            default:
                return nil
            }
        }
        self.fields = fields
    }
}
