import FoundationEssentials
import Glibc

/// This machine's time zone as the C library reads it (`TZ`, else /etc/localtime): its IANA
/// name and its offset at an instant. Foundation's `TimeZone.current` knows no zone but UTC
/// without ICU, which umctl does not load so that it starts fast.
enum MachineZone {
    /// The name of the zone the C library converts with: `identifier(of: .live)`.
    static var identifier: String { identifier(of: .live) }

    /// Where the zone's name is read from: this machine, or one a test makes up.
    struct Machine {
        /// `TZ`, nil when unset.
        var variable: String?
        /// The path /etc/localtime links to; nil when it is no link (a copy, or missing).
        var localtimeLink: String?
        /// /etc/timezone (Debian's record of the zone's name), when there is one: read only
        /// when /etc/localtime is a copy, the one case that needs it.
        var etcTimezone: () -> String?
        /// Whether zone NAME has a readable file in the zoneinfo folder.
        var isZone: (String) -> Bool
        /// Whether /etc/localtime holds the very bytes of zone NAME's file.
        var localtimeIsCopy: (String) -> Bool
        /// Seconds east of UTC now, as the C library converts.
        var offsetNow: Int

        static var live: Machine {
            var target = [CChar](repeating: 0, count: 4_096)
            let length = readlink(localtime, &target, target.count - 1)
            return Machine(
                variable: getenv("TZ").map { String(cString: $0) },
                localtimeLink: length > 0 ? String(decoding: target.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil,
                etcTimezone: { contents("/etc/timezone").map { String(decoding: $0, as: UTF8.self) } },
                isZone: { access(zoneFolder + $0, R_OK) == 0 },
                localtimeIsCopy: { name in contents(localtime).map { $0 == contents(zoneFolder + name) } ?? false },
                offsetNow: offset(at: Date()))
        }

        private static let localtime = "/etc/localtime"

        /// A small file's bytes (a zone file is a few kB); nil when it cannot be read.
        private static func contents(_ path: String) -> Data? {
            try? Data(contentsOf: URL(filePath: path), options: .mappedIfSafe)
        }
    }

    /// `TZ` naming a zone file (without a leading colon or the zoneinfo folder); else, without
    /// `TZ`, the zone /etc/localtime links to, or, when it is a copy, the zone /etc/timezone
    /// names if /etc/localtime holds that zone's bytes; else the offset now ("UTC+02:00", "UTC"
    /// at 0), which is what the C library converts with (a `TZ` rule such as `EET-2`, a zone
    /// file elsewhere, a copy with no name beside it, no zone at all).
    static func identifier(of machine: Machine) -> String {
        if let variable = machine.variable {
            if let name = zoneName(variable.hasPrefix(":") ? String(variable.dropFirst()) : variable), machine.isZone(name) {
                return name
            }
        } else if let link = machine.localtimeLink {
            if let name = zoneName(link) { return name }
        } else if let line = machine.etcTimezone()?.split(whereSeparator: \.isNewline).first {
            let name = line.trimmingBlanks()
            if !name.isEmpty, !name.contains(".."), machine.isZone(name), machine.localtimeIsCopy(name) { return name }
        }
        return fixedName(offset: machine.offsetNow)
    }

    /// "UTC+02:00", "UTC-03:30"; "UTC" at 0.
    static func fixedName(offset: Int) -> String {
        guard offset != 0 else { return "UTC" }
        let minutes = abs(offset) / 60
        let hours = minutes / 60, rest = minutes % 60
        return "UTC\(offset < 0 ? "-" : "+")\(hours < 10 ? "0" : "")\(hours):\(rest < 10 ? "0" : "")\(rest)"
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
