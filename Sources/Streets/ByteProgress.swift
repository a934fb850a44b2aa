import Foundation

/// How much of a file is read or received, as import progress shows it: in KiB under a MiB and
/// in MiB (a tenth under 10) above, the same unit on both sides ("412 of 685 KiB", "3.2 of 48.0
/// MiB"), so a small file never reads "0 of 0 MiB"; with no size known, what came so far
/// ("412 KiB so far, size not announced").
public enum ByteProgress {
    public static func text(_ done: Int64, of total: Int64?) -> String {
        guard let total, total > 0 else { return "\(amount(done, unit: unit(for: done))) \(unit(for: done).name) so far, size not announced" }
        let chosen = unit(for: total)
        return "\(amount(min(done, total), unit: chosen)) of \(amount(total, unit: chosen)) \(chosen.name)"
    }

    private struct Unit { var name: String; var bytes: Double; var decimals: Int }

    private static func unit(for bytes: Int64) -> Unit {
        if bytes < 1 << 20 { return Unit(name: "KiB", bytes: 1024, decimals: 0) }
        return Unit(name: "MiB", bytes: 1_048_576, decimals: bytes < 10 << 20 ? 1 : 0)
    }

    private static func amount(_ bytes: Int64, unit: Unit) -> String {
        let value = Double(max(0, bytes)) / unit.bytes
        // A file of a few bytes reads "1 KiB", not "0 KiB": rounded up while anything is there.
        if unit.decimals == 0 { return String(Int(bytes > 0 ? max(1, value.rounded()) : 0)) }
        return String(format: "%.1f", value)
    }
}
