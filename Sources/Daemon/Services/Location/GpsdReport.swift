import Foundation

/// One line of gpsd's JSON protocol, as far as the daemon cares: a position report (class
/// `TPV`) becomes a fix candidate; every other class (VERSION, DEVICES, WATCH, SKY, GST…) is
/// nothing to act on.
enum GpsdReport: Equatable {
    case position(FixFilter.Candidate)
    case other(className: String)

    /// The command that asks gpsd to stream reports as JSON.
    static let watchCommand = #"?WATCH={"enable":true,"json":true}"# + "\n"

    /// Parses one line (without its newline).
    /// - throws: `GpsdProtocolError` for a line that is not a JSON object with a class.
    static func parse(_ line: Data) throws -> GpsdReport {
        let report: GpsdLine
        do {
            report = try JSONDecoder().decode(GpsdLine.self, from: line)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw GpsdProtocolError("not JSON: \(context.debugDescription)")
        } catch {
            throw GpsdProtocolError("a JSON line without a class")
        }
        guard report.className == "TPV" else { return .other(className: report.className) }
        return .position(FixFilter.Candidate(
            latitude: report.lat, longitude: report.lon, accuracy: report.accuracy,
            time: report.time.flatMap(GpsdTime.date(from:)), hasFix: (report.mode ?? 0) >= 2))
    }
}

/// The members of a gpsd report the daemon reads. A member of another type than gpsd sends is
/// taken as absent, not as a broken line: the report is then one without a fix.
private struct GpsdLine: Decodable {
    var className: String
    var lat, lon, eph, epx, epy, mode: Double?
    var time: String?

    private enum CodingKeys: String, CodingKey {
        case className = "class", lat, lon, eph, epx, epy, mode, time
    }

    init(from decoder: Decoder) throws {
        let members = try decoder.container(keyedBy: CodingKeys.self)
        className = try members.decode(String.self, forKey: .className)
        func number(_ key: CodingKeys) -> Double? { (try? members.decodeIfPresent(Double.self, forKey: key)) ?? nil }
        lat = number(.lat)
        lon = number(.lon)
        eph = number(.eph)
        epx = number(.epx)
        epy = number(.epy)
        mode = number(.mode)
        time = (try? members.decodeIfPresent(String.self, forKey: .time)) ?? nil
    }

    /// gpsd's horizontal error estimate in metres: `eph` (gpsd ≥ 3.20), else the larger of the
    /// longitude and latitude errors `epx`/`epy` that older gpsd sends.
    var accuracy: Double? {
        if let eph { return eph }
        let parts = [epx, epy].compactMap { $0 }
        return parts.count == 2 ? parts.max() : nil
    }
}

/// gpsd sent something that is not its protocol (the address is probably not a gpsd).
struct GpsdProtocolError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
