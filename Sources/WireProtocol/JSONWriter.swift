import FoundationEssentials

/// Writes a `JSONValue` as compact JSON with sorted keys (the same bytes for the same value),
/// without going through `JSONEncoder`. Whole numbers below 10^15 are written without a
/// fraction (`7`, not `7.0`); `/` is not escaped.
public enum JSONWriter {
    public static func data(_ value: JSONValue) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(value, into: &bytes)
        return data(of: bytes)
    }

    /// A request line's JSON: the same bytes as `data(request.jsonValue)`, written member by
    /// member in their sorted order, without making, sorting and looking up the envelope's
    /// object (each umctl process writes two).
    public static func data(_ request: WireRequest) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        bytes.append(UInt8(ascii: "{"))
        if let id = request.id {
            write("id", into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            write(id.jsonValue, into: &bytes)
            bytes.append(UInt8(ascii: ","))
        }
        write("jsonrpc", into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        write(request.jsonrpc, into: &bytes)
        bytes.append(UInt8(ascii: ","))
        write("method", into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        write(request.method, into: &bytes)
        if let params = request.params {
            bytes.append(UInt8(ascii: ","))
            write("params", into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            write(params, into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return data(of: bytes)
    }

    /// The bytes as `Data`, copied from the array's buffer: `Data(bytes)` took the generic
    /// sequence path, 7 K instructions for a request line (2 % of a whole `umctl status`).
    private static func data(of bytes: [UInt8]) -> Data {
        bytes.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    static func write(_ value: JSONValue, into bytes: inout [UInt8]) {
        switch value {
        case .null: bytes += Array("null".utf8)
        case .bool(let flag): bytes += Array((flag ? "true" : "false").utf8)
        case .number(let number): bytes += Array(text(number).utf8)
        case .string(let string): write(string, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element, into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                write(members[key] ?? .null, into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// JSON has no NaN or infinity; they are written as null rather than producing invalid JSON.
    static func text(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        return number.description
    }

    static func write(_ string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
