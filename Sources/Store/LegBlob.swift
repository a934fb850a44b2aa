import Foundation
import Planner

/// The binary format of the blobs in plan tables: coordinate lists, transit rides, string
/// lists and whole legs (docs/storage.md, "Leg blobs").
///
/// Each blob starts with a kind byte and a format version byte; numbers are little-endian
/// IEEE-754 bit patterns (so every Double, NaN included, round-trips exactly); counts and
/// lengths are unsigned LEB128; strings are UTF-8; an optional is a 0/1 byte and the value.
enum LegBlob {
    enum Kind: UInt8 {
        case geometry = 0x47  // "G"
        case rides = 0x52     // "R"
        case strings = 0x53   // "S"
        case leg = 0x4C       // "L"
        case noCatchableRide = 0x4E  // "N": a pending update's answer when no ride can be caught
    }

    /// The version written. Version 2 added a transit leg's walks and its walking-is-no-slower
    /// note after the rides (in `R` and `L` blobs); version 1 blobs still decode, with no walks.
    /// Version 3 added each ride's headway after its trip ID; older rides decode with none.
    /// Version 4 added live times: each stop call's optional scheduled time after its time, and
    /// after a ride's stop calls its cancelled byte and its service alerts.
    /// Version 5 added the leg's price after the walks (an optional: an optional amount, as
    /// decimal text, and currency, an optional note, an estimate byte); older legs decode with none.
    /// Version 6 added the leg's accessibility after the price (an optional `LegAccessibility` raw
    /// value); older legs decode with none (shown as unknown).
    /// Version 7 widened a ride's cancelled byte: 2 (3) when the running trip does not call at
    /// its boarding (alighting) stop (`TransitRide.skippedCall`); older rides decode 1 as the trip off.
    static let formatVersion: UInt8 = 7
    static let oldestReadableVersion: UInt8 = 1

    // MARK: - Encoding

    static func encode(geometry: [Coordinate]) -> [UInt8] {
        var writer = BlobWriter(kind: .geometry)
        writer.coordinates(geometry)
        return writer.bytes
    }

    /// A transit leg's rides, walks and note (the `plan_segment.leg_rides` column).
    static func encode(rides: [TransitRide], walks: [TransitWalkStep], walkingIsNoSlower: Bool,
                       price: PriceQuote? = nil, accessibility: LegAccessibility? = nil) -> [UInt8] {
        var writer = BlobWriter(kind: .rides)
        writer.rides(rides)
        writer.walks(walks, walkingIsNoSlower: walkingIsNoSlower)
        writer.price(price)
        writer.accessibility(accessibility)
        return writer.bytes
    }

    static func encode(strings: [String]) -> [UInt8] {
        var writer = BlobWriter(kind: .strings)
        writer.count(strings.count)
        strings.forEach { writer.string($0) }
        return writer.bytes
    }

    static func encode(leg: RouteLeg) -> [UInt8] {
        var writer = BlobWriter(kind: .leg)
        writer.string(leg.mode.rawValue)
        writer.double(leg.expectedTravelTime)
        writer.optional(leg.distance) { $0.double($1) }
        writer.optional(leg.departure) { $0.date($1) }
        writer.optional(leg.arrival) { $0.date($1) }
        writer.coordinates(leg.geometry)
        writer.rides(leg.rides)
        writer.walks(leg.walks, walkingIsNoSlower: leg.walkingIsNoSlower)
        writer.price(leg.price)
        writer.accessibility(leg.accessibility)
        return writer.bytes
    }

    // MARK: - Decoding

    static func decodeGeometry(_ bytes: [UInt8]) throws -> [Coordinate] {
        var reader = try BlobReader(bytes, kind: .geometry)
        let result = try reader.coordinates()
        try reader.finish()
        return result
    }

    static func decodeRides(_ bytes: [UInt8]) throws
        -> (rides: [TransitRide], walks: [TransitWalkStep], walkingIsNoSlower: Bool, price: PriceQuote?,
            accessibility: LegAccessibility?) {
        var reader = try BlobReader(bytes, kind: .rides)
        let rides = try reader.rides()
        let (walks, walkingIsNoSlower) = try reader.walks()
        let price = try reader.price()
        let accessibility = try reader.accessibility()
        try reader.finish()
        return (rides, walks, walkingIsNoSlower, price, accessibility)
    }

    static func decodeStrings(_ bytes: [UInt8]) throws -> [String] {
        var reader = try BlobReader(bytes, kind: .strings)
        let count = try reader.count()
        var result: [String] = []
        for _ in 0..<count { result.append(try reader.string()) }
        try reader.finish()
        return result
    }

    /// A pending update's "no ride can be caught" answer, stored where its proposed leg would be.
    static func encode(noCatchableRide answer: NoCatchableRide) -> [UInt8] {
        var writer = BlobWriter(kind: .noCatchableRide)
        writer.flag(answer.arrivingBy)
        writer.date(answer.time)
        return writer.bytes
    }

    static func decodeNoCatchableRide(_ bytes: [UInt8]) throws -> NoCatchableRide {
        var reader = try BlobReader(bytes, kind: .noCatchableRide)
        let arrivingBy = try reader.byte()
        guard arrivingBy <= 1 else { throw StoreError.corruptRecord("noCatchableRide blob: direction byte \(arrivingBy)") }
        let time = try reader.date()
        try reader.finish()
        return NoCatchableRide(arrivingBy: arrivingBy == 1, time: time)
    }

    /// Whether `bytes` is the "no ride can be caught" answer rather than a leg.
    static func isNoCatchableRide(_ bytes: [UInt8]) -> Bool { bytes.first == Kind.noCatchableRide.rawValue }

    static func decodeLeg(_ bytes: [UInt8]) throws -> RouteLeg {
        var reader = try BlobReader(bytes, kind: .leg)
        let mode = try reader.travelMode()
        let travelTime = try reader.double()
        let distance = try reader.optional { try $0.double() }
        let departure = try reader.optional { try $0.date() }
        let arrival = try reader.optional { try $0.date() }
        let geometry = try reader.coordinates()
        let rides = try reader.rides()
        let (walks, walkingIsNoSlower) = try reader.walks()
        let price = try reader.price()
        let accessibility = try reader.accessibility()
        try reader.finish()
        return RouteLeg(mode: mode, expectedTravelTime: travelTime, distance: distance, departure: departure,
                        arrival: arrival, geometry: geometry, rides: rides, walks: walks, walkingIsNoSlower: walkingIsNoSlower,
                        price: price, accessibility: accessibility)
    }
}

/// Appends values in the blob format.
struct BlobWriter {
    private(set) var bytes: [UInt8]

    init(kind: LegBlob.Kind, version: UInt8 = LegBlob.formatVersion) { bytes = [kind.rawValue, version] }

    mutating func count(_ value: Int) { number(value) }

    /// A non-negative integer as unsigned LEB128 (negative values are written as 0).
    mutating func number(_ value: Int) {
        var rest = UInt64(max(0, value))
        repeat {
            let low = UInt8(rest & 0x7F)
            rest >>= 7
            bytes.append(rest == 0 ? low : low | 0x80)
        } while rest != 0
    }

    mutating func double(_ value: Double) {
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    mutating func date(_ value: Date) { double(value.timeIntervalSinceReferenceDate) }

    /// A byte 0 (false) or 1 (true).
    mutating func flag(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        count(utf8.count)
        bytes.append(contentsOf: utf8)
    }

    mutating func optional<T>(_ value: T?, _ write: (inout BlobWriter, T) -> Void) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        write(&self, value)
    }

    mutating func coordinates(_ values: [Coordinate]) {
        count(values.count)
        for value in values {
            double(value.latitude)
            double(value.longitude)
        }
    }

    mutating func stopCall(_ call: TransitStopCall) {
        optional(call.stopID) { $0.string($1) }
        string(call.name)
        double(call.coordinate.latitude)
        double(call.coordinate.longitude)
        date(call.time)
        if bytes[1] >= 4 { optional(call.scheduledTime) { $0.date($1) } }
    }

    mutating func alert(_ alert: ServiceAlert) {
        string(alert.id)
        string(alert.header)
        optional(alert.description) { $0.string($1) }
        optional(alert.language) { $0.string($1) }
        optional(alert.url) { $0.string($1) }
        string(alert.effect)
        optional(alert.cause) { $0.string($1) }
        optional(alert.activeFrom) { $0.date($1) }
        optional(alert.activeUntil) { $0.date($1) }
    }

    mutating func rides(_ rides: [TransitRide]) {
        count(rides.count)
        for ride in rides {
            string(ride.lineName)
            string(ride.vehicle)
            optional(ride.headsign) { $0.string($1) }
            optional(ride.tripID) { $0.string($1) }
            if bytes[1] >= 3 { optional(ride.headwaySeconds) { $0.number($1) } }
            stopCall(ride.boarding)
            stopCall(ride.alighting)
            if bytes[1] >= 4 {
                let skipped: UInt8 = switch ride.skippedCall { case .boarding?: 2; case .alighting?: 3; case nil: 1 }
                bytes.append(ride.cancelled ? (bytes[1] >= 7 ? skipped : 1) : 0)
                count(ride.alerts.count)
                ride.alerts.forEach { alert($0) }
            }
        }
    }

    /// From version 2 on: the walks, then the note as one byte 0/1.
    mutating func walks(_ walks: [TransitWalkStep], walkingIsNoSlower: Bool) {
        guard bytes[1] >= 2 else { return }
        count(walks.count)
        for walk in walks {
            string(walk.kind.rawValue)
            string(walk.fromName)
            double(walk.from.latitude)
            double(walk.from.longitude)
            string(walk.toName)
            double(walk.to.latitude)
            double(walk.to.longitude)
            date(walk.start)
            double(walk.duration)
            double(walk.distance)
        }
        bytes.append(walkingIsNoSlower ? 1 : 0)
    }

    /// From version 5 on: the leg's price, if any.
    mutating func price(_ quote: PriceQuote?) {
        guard bytes[1] >= 5 else { return }
        optional(quote) { writer, quote in
            writer.optional(quote.price) { $0.string("\($1.amount)"); $0.string($1.currency) }
            writer.optional(quote.note) { $0.string($1) }
            writer.bytes.append(quote.isEstimate ? 1 : 0)
        }
    }

    /// From version 6 on: the leg's accessibility, if known.
    mutating func accessibility(_ value: LegAccessibility?) {
        guard bytes[1] >= 6 else { return }
        optional(value) { $0.string($1.rawValue) }
    }
}

/// Reads the blob format, checking every length against the bytes left.
struct BlobReader {
    private let bytes: [UInt8]
    private var offset = 0
    private let kind: LegBlob.Kind
    /// The blob's format version; older versions lack the parts added later.
    let version: UInt8

    init(_ bytes: [UInt8], kind: LegBlob.Kind) throws {
        self.bytes = bytes
        self.kind = kind
        guard bytes.count >= 2, bytes[0] == kind.rawValue else {
            throw StoreError.corruptRecord("\(kind) blob has the wrong header")
        }
        guard (LegBlob.oldestReadableVersion...LegBlob.formatVersion).contains(bytes[1]) else {
            throw StoreError.corruptRecord("\(kind) blob has unknown format version \(bytes[1])")
        }
        version = bytes[1]
        offset = 2
    }

    private func damaged(_ what: String) -> StoreError {
        StoreError.corruptRecord("\(kind) blob: \(what) at byte \(offset) of \(bytes.count)")
    }

    mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw damaged("ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A length or number of items: never more than the bytes left could hold.
    mutating func count() throws -> Int {
        let value = try number()
        guard value <= (bytes.count - offset) * 8 + 1 else { throw damaged("count \(value) exceeds the blob") }
        return value
    }

    /// A non-negative integer in unsigned LEB128.
    mutating func number() throws -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 63 else { throw damaged("number too large") }
            value |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { break }
            shift += 7
        }
        guard value <= UInt64(Int.max) else { throw damaged("number too large") }
        return Int(value)
    }

    mutating func double() throws -> Double {
        guard bytes.count - offset >= 8 else { throw damaged("ends inside a number") }
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(bytes[offset + index]) << UInt64(index * 8) }
        offset += 8
        return Double(bitPattern: bits)
    }

    mutating func date() throws -> Date { Date(timeIntervalSinceReferenceDate: try double()) }

    mutating func string() throws -> String {
        let length = try count()
        guard bytes.count - offset >= length else { throw damaged("ends inside a string") }
        defer { offset += length }
        guard let text = String(validating: bytes[offset..<offset + length], as: UTF8.self) else {
            throw damaged("text is not UTF-8")
        }
        return text
    }

    mutating func optional<T>(_ read: (inout BlobReader) throws -> T) throws -> T? {
        switch try byte() {
        case 0: return nil
        case 1: return try read(&self)
        case let other: throw damaged("optional flag \(other)")
        }
    }

    mutating func travelMode() throws -> TravelMode {
        let raw = try string()
        guard let mode = TravelMode(rawValue: raw) else { throw damaged("unknown travel mode \(raw)") }
        return mode
    }

    mutating func coordinates() throws -> [Coordinate] {
        let count = try count()
        var result: [Coordinate] = []
        result.reserveCapacity(min(count, bytes.count / 16))
        for _ in 0..<count { result.append(Coordinate(latitude: try double(), longitude: try double())) }
        return result
    }

    mutating func stopCall() throws -> TransitStopCall {
        let stopID = try optional { try $0.string() }
        let name = try string()
        let coordinate = Coordinate(latitude: try double(), longitude: try double())
        let time = try date()
        let scheduled = version >= 4 ? try optional { try $0.date() } : nil
        return TransitStopCall(stopID: stopID, name: name, coordinate: coordinate, time: time, scheduledTime: scheduled)
    }

    mutating func alert() throws -> ServiceAlert {
        let id = try string(), header = try string()
        let description = try optional { try $0.string() }
        let language = try optional { try $0.string() }
        let url = try optional { try $0.string() }
        let effect = try string()
        let cause = try optional { try $0.string() }
        let from = try optional { try $0.date() }
        let until = try optional { try $0.date() }
        return ServiceAlert(id: id, header: header, description: description, language: language, url: url,
                            effect: effect, cause: cause, activeFrom: from, activeUntil: until)
    }

    mutating func rides() throws -> [TransitRide] {
        let rideCount = try count()
        var result: [TransitRide] = []
        for _ in 0..<rideCount {
            let line = try string()
            let vehicle = try string()
            let headsign = try optional { try $0.string() }
            let tripID = try optional { try $0.string() }
            let headway = version >= 3 ? try optional { try $0.number() } : nil
            let boarding = try stopCall()
            let alighting = try stopCall()
            var cancelled = false
            var skippedCall: SkippedCall?
            var alerts: [ServiceAlert] = []
            if version >= 7 {
                switch try byte() {
                case 0: break
                case 1: cancelled = true
                case 2: (cancelled, skippedCall) = (true, .boarding)
                case 3: (cancelled, skippedCall) = (true, .alighting)
                case let other: throw damaged("cancelled byte \(other)")
                }
            }
            if version >= 4 {
                if version < 7 { cancelled = try flag("cancelled") }
                let alertCount = try count()
                for _ in 0..<alertCount { alerts.append(try alert()) }
            }
            result.append(TransitRide(lineName: line, vehicle: vehicle, headsign: headsign, tripID: tripID,
                                      headwaySeconds: headway, boarding: boarding, alighting: alighting,
                                      cancelled: cancelled, skippedCall: skippedCall, alerts: alerts))
        }
        return result
    }

    /// The walks and the walking-is-no-slower note; a version 1 blob has neither.
    mutating func walks() throws -> (walks: [TransitWalkStep], walkingIsNoSlower: Bool) {
        guard version >= 2 else { return ([], false) }
        let count = try count()
        var result: [TransitWalkStep] = []
        for _ in 0..<count {
            let rawKind = try string()
            guard let kind = TransitWalkStep.Kind(rawValue: rawKind) else { throw damaged("unknown walk kind \(rawKind)") }
            let fromName = try string()
            let from = Coordinate(latitude: try double(), longitude: try double())
            let toName = try string()
            let to = Coordinate(latitude: try double(), longitude: try double())
            result.append(TransitWalkStep(kind: kind, fromName: fromName, from: from, toName: toName, to: to,
                                          start: try date(), duration: try double(), distance: try double()))
        }
        return (result, try flag("walking note"))
    }

    /// The leg's accessibility; none before version 6.
    mutating func accessibility() throws -> LegAccessibility? {
        guard version >= 6 else { return nil }
        return try optional { reader -> LegAccessibility in
            let text = try reader.string()
            guard let value = LegAccessibility(rawValue: text) else { throw reader.damaged("accessibility \(text)") }
            return value
        }
    }

    /// The leg's price; none before version 5.
    mutating func price() throws -> PriceQuote? {
        guard version >= 5 else { return nil }
        return try optional { reader in
            let price = try reader.optional { reader -> Money in
                let text = try reader.string()
                guard let amount = Money.decimal(text) else { throw reader.damaged("price amount \(text)") }
                return Money(amount: amount, currency: try reader.string())
            }
            return PriceQuote(price: price, note: try reader.optional { try $0.string() }, isEstimate: try reader.flag("price estimate"))
        }
    }

    /// One byte 0 (false) or 1 (true).
    mutating func flag(_ what: String) throws -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        case let other: throw damaged("\(what) flag \(other)")
        }
    }

    func finish() throws {
        guard offset == bytes.count else { throw damaged("\(bytes.count - offset) unexpected trailing bytes") }
    }
}
