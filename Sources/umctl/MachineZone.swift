import FoundationEssentials
import Glibc

/// This machine's time zone as the C library reads it (`TZ`, else /etc/localtime): its IANA
/// name and its offset at an instant. Foundation's `TimeZone.current` knows no zone but UTC
/// without ICU, which umctl does not load so that it starts fast.
enum MachineZone {
    /// `TZ` (without a leading colon or the zoneinfo folder), else the zone /etc/localtime
    /// links to, else UTC; the name Foundation gave, read from the same places.
    static var identifier: String {
        if let variable = getenv("TZ").map({ String(cString: $0) }), let name = zoneName(variable.hasPrefix(":") ? String(variable.dropFirst()) : variable),
           access(zoneFolder + name, R_OK) == 0 {
            return name
        }
        var target = [CChar](repeating: 0, count: 4_096)
        let length = readlink("/etc/localtime", &target, target.count - 1)
        guard length > 0 else { return "UTC" }
        return zoneName(String(decoding: target.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)) ?? "UTC"
    }

    /// Seconds east of UTC at `date` (summer time included).
    static func offset(at date: Date) -> Int {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return parts.tm_gmtoff
    }

    private static let zoneFolder = "/usr/share/zoneinfo/"

    /// The IANA name in a zone file's path or a `TZ` value: the part after `zoneinfo/`, or the
    /// whole of a relative name; nil for an empty one.
    private static func zoneName(_ path: String) -> String? {
        if let range = path.firstRange(of: "zoneinfo/") { return String(path[range.upperBound...]) }
        return path.isEmpty || path.hasPrefix("/") ? nil : path
    }
}
