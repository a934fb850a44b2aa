import FoundationEssentials

/// A short duration as people type it: "90s", "15m", "1h", "1h30m", "1d" (a bare number is
/// minutes, or `bareUnit` seconds each where a setting counts in seconds).
///
/// ```swift
/// DurationText.seconds("15m")    // 900
/// DurationText.seconds("1h30m")  // 5400
/// DurationText.seconds("soon")   // nil
/// ```
public enum DurationText {
    public static func seconds(_ text: String, bareUnit: Double = 60) -> Double? {
        let text = text.trimmingBlanks().lowercased()
        if let bare = Double(text), bare.isFinite, bare >= 0 { return bare * bareUnit }
        var total = 0.0, number = "", sawUnit = false
        for character in text {
            if character.isNumber || character == "." {
                number.append(character)
                continue
            }
            let unit: Double
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86_400
            default: return nil
            }
            guard let value = Double(number), value.isFinite else { return nil }
            total += value * unit
            number = ""
            sawUnit = true
        }
        return sawUnit && number.isEmpty ? total : nil
    }
}
