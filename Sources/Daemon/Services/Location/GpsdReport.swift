import Foundation
import WireProtocol

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
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw GpsdProtocolError("not JSON: \(error)")
        }
        guard case .object = value, let className = value["class"]?.stringValue else {
            throw GpsdProtocolError("a JSON line without a class")
        }
        guard className == "TPV" else { return .other(className: className) }
        return .position(FixFilter.Candidate(
            latitude: value["lat"]?.numberValue, longitude: value["lon"]?.numberValue,
            accuracy: accuracy(of: value), time: value["time"]?.stringValue.flatMap(WireTime.date(from:)),
            hasFix: (value["mode"]?.numberValue ?? 0) >= 2))
    }

    /// gpsd's horizontal error estimate in metres: `eph` (gpsd ≥ 3.20), else the larger of the
    /// longitude and latitude errors `epx`/`epy` that older gpsd sends.
    static func accuracy(of tpv: JSONValue) -> Double? {
        if let eph = tpv["eph"]?.numberValue { return eph }
        let parts = [tpv["epx"]?.numberValue, tpv["epy"]?.numberValue].compactMap { $0 }
        return parts.count == 2 ? parts.max() : nil
    }
}

/// gpsd sent something that is not its protocol (the address is probably not a gpsd).
struct GpsdProtocolError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
