import Glibc

/// A number with a fixed count of decimals, rounded as C's printf rounds it (`%.1f`): what
/// `String(format:)` wrote, without loading Foundation for it.
enum FixedDecimals {
    /// `value` with `decimals` digits after the point, right-aligned in `width` characters.
    static func text(_ value: Double, decimals: Int, width: Int = 0) -> String {
        let arguments: [CVarArg] = [Int32(width), Int32(decimals), value]
        let length = withVaList(arguments) { vsnprintf(nil, 0, "%*.*f", $0) }
        guard length >= 0 else { return String(value) }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, "%*.*f", $0) }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
