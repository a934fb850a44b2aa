import Foundation

/// A Google Maps directions link for one segment of a plan (always two points: Google's transit
/// directions fail with waypoints).
///
/// The primary form carries the segment's departure time from `schedule()` as "depart at", so the
/// link opens *that* train; when it can't be built (no time, a bad coordinate, an inconsistent
/// token layout) the documented `api=1` form without a time is produced, and `form` says so.
/// The layout lives in `Resources/google-maps-format.json`; this type fills it in.
///
/// ```swift
/// let link = try GoogleMapsLink.build(plan: plan, segment: 1, timeZone: region.timeZone)
/// print(link.url, link.form) // …, .timed
/// ```
public struct GoogleMapsLink: Hashable, Sendable {
    public enum Form: String, Sendable, Codable {
        /// The `data=` form with the departure time.
        case timed
        /// The documented form: places and mode, no time.
        case fallback
    }

    public var url: String
    public var form: Form
    /// Why the fallback form was produced; `nil` for `.timed`.
    public var fallbackReason: String?

    public init(url: String, form: Form, fallbackReason: String? = nil) {
        self.url = url
        self.form = form
        self.fallbackReason = fallbackReason
    }

    // MARK: - Building

    /// The link for segment `segment` of `plan`, departing at the segment's `departureTimes()` time (after any stay at its start).
    /// - parameter timeZone: the *region's* time zone (where the trip happens), never the machine's.
    /// - parameter now: start of a "leave now" plan whose legs carry no dates (all walk/car);
    ///   without it such a plan gets the fallback form.
    /// - throws: `PlannerError.segmentIndexOutOfRange`, or `linkFormatInvalid` if the embedded
    ///   format file is broken.
    public static func build(plan: RoutePlan, segment: Int, timeZone: TimeZone, now: Date? = nil) throws -> GoogleMapsLink {
        try plan.checkSegment(segment)
        let departure = plan.departureTimes(startingAt: now)[segment]
        return try build(from: plan.nodes[segment].place, to: plan.nodes[segment + 1].place,
                         mode: plan.modes[segment], departure: departure, timeZone: timeZone)
    }

    /// The link between two places; `departure == nil` gives the fallback form.
    public static func build(from origin: Place, to destination: Place, mode: TravelMode, departure: Date?,
                             timeZone: TimeZone) throws -> GoogleMapsLink {
        let format = try GoogleMapsFormat.embedded.get()
        let fallback = { (reason: String) in
            GoogleMapsLink(url: fallbackURL(format.fallback, origin, destination, mode), form: .fallback,
                           fallbackReason: reason)
        }
        guard origin.coordinate.isValid, destination.coordinate.isValid else { return fallback("invalid coordinate") }
        guard let departure else { return fallback("no departure time") }
        guard let wallClock = wallClockAsUTC(departure, in: timeZone) else { return fallback("time not representable") }
        guard let mode = format.primary.modeValues[mode.rawValue] else { return fallback("no value for mode") }
        let digits = format.primary.coordinateFractionDigits
        let values = [
            "{origin.longitude}": fixed(origin.coordinate.longitude, digits),
            "{origin.latitude}": fixed(origin.coordinate.latitude, digits),
            "{destination.longitude}": fixed(destination.coordinate.longitude, digits),
            "{destination.latitude}": fixed(destination.coordinate.latitude, digits),
            "{departure.wallClockAsUTC}": String(wallClock),
            "{mode}": mode,
        ]
        let data = render(format.primary.body, values: values)
        if let problem = structuralProblem(data, forbiddenTypes: Set(format.primary.forbiddenTokenTypes)) {
            return fallback("inconsistent data parameter: \(problem)")
        }
        let url = format.primary.prefix + encodeName(pathName(origin, digits)) + "/" + encodeName(pathName(destination, digits)) + "/"
            + format.primary.dataKey + data
        return GoogleMapsLink(url: url, form: .timed)
    }

    // MARK: - Time

    /// The local wall-clock time of `date` in `timeZone` (to the minute), re-read as if it were UTC,
    /// as epoch seconds. Google's time token wants this, not the real epoch: in JST the two differ by
    /// exactly 9 × 3600 s.
    public static func wallClockAsUTC(_ date: Date, in timeZone: TimeZone) -> Int64? {
        var local = Calendar(identifier: .gregorian)
        local.timeZone = timeZone
        var components = local.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        components.second = 0
        var utc = Calendar(identifier: .gregorian)
        guard let gmt = TimeZone(secondsFromGMT: 0) else { return nil }
        utc.timeZone = gmt
        guard let reread = utc.date(from: components) else { return nil }
        return Int64(reread.timeIntervalSince1970)
    }

    // MARK: - Tokens

    /// Renders the token tree; a block's count is the number of tokens inside it, at any depth.
    static func render(_ templates: [GoogleMapsFormat.TokenTemplate], values: [String: String]) -> String {
        func tokens(_ template: GoogleMapsFormat.TokenTemplate) -> [String] {
            if let children = template.children {
                let inner = children.flatMap(tokens)
                return ["!\(template.field)m\(inner.count)"] + inner
            }
            let raw = template.value ?? ""
            return ["!\(template.field)\(template.type)\(values[raw] ?? raw)"]
        }
        return templates.flatMap(tokens).joined()
    }

    /// Re-parses an emitted `data=` value and checks it: every token is `!{field}{type}{value}`,
    /// every block count is an integer that fits inside its parent and is used up exactly, no
    /// placeholder is left, and no forbidden token type (a place-ID block) appears.
    /// Returns `nil` when consistent, else what is wrong.
    static func structuralProblem(_ data: String, forbiddenTypes: Set<String>) -> String? {
        guard data.hasPrefix("!") else { return "does not start with a token" }
        var open: [Int] = []
        for token in data.dropFirst().split(separator: "!", omittingEmptySubsequences: false) {
            let digits = token.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let type = token.dropFirst(digits.count).first else {
                return "malformed token !\(token)"
            }
            let value = token.dropFirst(digits.count + 1)
            if forbiddenTypes.contains(String(type)) { return "forbidden token !\(token)" }
            if value.contains("{") || value.isEmpty { return "unfilled token !\(token)" }
            guard open.allSatisfy({ $0 > 0 }) else { return "token !\(token) outside its block" }
            open = open.map { $0 - 1 }
            if type == "m" {
                guard let count = Int(value), count > 0 else { return "bad block count !\(token)" }
                if let parent = open.last, count > parent { return "block !\(token) longer than its parent" }
                open.append(count)
            }
            while open.last == 0 { open.removeLast() }
            if open.contains(0) { return "a block ends inside a child block" }
        }
        return open.isEmpty ? nil : "blocks not closed: \(open)"
    }

    // MARK: - Pieces

    static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// A place name as a path component: space → `+`, every byte outside the unreserved set
    /// (A–Z a–z 0–9 - . _ ~) percent-encoded, including `/` and `+` themselves.
    static func encodeName(_ name: String) -> String {
        var encoded = ""
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: " "): encoded += "+"
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.append(Character(UnicodeScalar(byte)))
            default: encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }

    /// A place as the path names it: its name, or its coordinates for a place typed as coordinates
    /// (its name, "near …", would be searched by Google as text).
    static func pathName(_ place: Place, _ digits: Int) -> String {
        place.kind == .coordinate ? fixed(place.coordinate.latitude, digits) + "," + fixed(place.coordinate.longitude, digits) : place.name
    }

    /// The documented form: coordinates when valid, else the encoded name.
    static func fallbackURL(_ format: GoogleMapsFormat.Fallback, _ origin: Place, _ destination: Place,
                            _ mode: TravelMode) -> String {
        func point(_ place: Place) -> String {
            guard place.coordinate.isValid else { return encodeName(place.name) }
            return fixed(place.coordinate.latitude, format.coordinateFractionDigits) + ","
                + fixed(place.coordinate.longitude, format.coordinateFractionDigits)
        }
        return format.prefix + "&\(format.originKey)=\(point(origin))&\(format.destinationKey)=\(point(destination))"
            + "&\(format.travelModeKey)=\(format.travelModes[mode.rawValue] ?? mode.rawValue)"
    }
}
