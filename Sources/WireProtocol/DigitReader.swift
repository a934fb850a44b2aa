/// Reads fixed-width ASCII numbers and separators from the front of a text, for the instants
/// `WireTime` reads by hand.
struct DigitReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var isAtEnd: Bool { index == bytes.count }

    /// A number of exactly `digits` ASCII digits, consumed; nil (and nothing consumed) otherwise.
    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + digits] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += digits
        return value
    }

    /// The digits after a decimal point as a fraction (`5` is 0.5); nil when there are none.
    mutating func fraction() -> Double? {
        var value = 0.0, scale = 0.1, start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            value += Double(bytes[index] - UInt8(ascii: "0")) * scale
            scale /= 10
            index += 1
        }
        return index > start ? value : nil
    }

    /// Whether the next character is `character` (ASCII), consuming it when it is.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }
}
