import Foundation

/// A short duration as people type it: "90s", "15m", "1h", "1h30m" (a bare number is minutes).
///
/// ```swift
/// DurationText.seconds("15m")    // 900
/// DurationText.seconds("1h30m")  // 5400
/// DurationText.seconds("soon")   // nil
/// ```
public enum DurationText {
    public static func seconds(_ text: String) -> Double? {
        let text = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let minutes = Double(text), minutes.isFinite, minutes >= 0 { return minutes * 60 }
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
