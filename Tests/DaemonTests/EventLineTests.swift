@testable import Daemon
import Foundation
import WireProtocol
import XCTest

/// An event encoded once gives every watch the same line an encoding of its own notification
/// would: the bytes `WireCodec.line(for:)` writes, `request_id` among the sorted params.
final class EventLineTests: XCTestCase {
    func testEachWatchsLineIsTheBytesOfItsOwnEncodedNotification() throws {
        let events: [[String: JSONValue]] = [
            ["kind": .string("location_changed"), "at": .string("2022-01-12T08:00:03+02:00"), "lat": .number(61.5),
             "lon": .number(23.76), "source": .string("manual")],
            ["kind": .string("plan_recomputed"), "at": .string("2022-01-12T08:00:03+02:00"), "plan_id": .number(2),
             "generation": .number(2), "queries": .number(1)],
            ["at": .string("x")],                       // every member before request_id
            ["source": .string("gpsd"), "zone": .null], // every member after it
            [:],
            ["kind": .string("place_saved"), "name": .string("Home \"2\"\n/ä"), "request_id": .string("not the watch's")],
        ]
        for fields in events {
            let line = EventLine(fields: fields)
            var withoutID = fields
            withoutID["request_id"] = nil
            XCTAssertEqual(line.json, JSONWriter.data(.object(withoutID)), "\(fields)")
            XCTAssertEqual(line.value, .object(withoutID))
            for id in [JSONValue.number(1), .string("w"), .null, .number(-12)] {
                var params = withoutID
                params["request_id"] = id
                let expected = try WireCodec.line(for: WireNotification(method: WireMethod.eventNotification, params: .object(params)))
                let written = line.notificationLine(requestID: JSONWriter.data(id))
                XCTAssertEqual(String(decoding: written, as: UTF8.self), String(decoding: expected, as: UTF8.self), "\(fields), id \(id)")
            }
        }
    }
}
