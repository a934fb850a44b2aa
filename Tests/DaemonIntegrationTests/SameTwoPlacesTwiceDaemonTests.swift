import Foundation
import TestSupport
import WireProtocol
import XCTest

/// A plan that goes between the same two places twice, built and pinned through the daemon: an
/// atomic batch's decisions stay on the segment they name, in the answer, in the store and after
/// a restart (the planner's SameTwoPlacesTwiceTests hold the rules; this holds the whole way).
final class SameTwoPlacesTwiceDaemonTests: TampereDaemonTestCase {
    /// The plan's pins and locks, one line each, in segment order.
    func pinsAndLocks(_ plan: JSONValue) -> [String] {
        let pins = (plan["pins"]?.arrayValue ?? []).map { "pin \(Int($0["segment"]?.numberValue ?? -1)) \($0["departure"]?.stringValue ?? "-")" }
        let locks = (plan["segments"]?.arrayValue ?? []).enumerated().compactMap { index, segment in
            segment["locked"] == .bool(true) ? "lock \(index + 1) \(segment["mode"]?.stringValue ?? "-")" : nil
        }
        return pins + locks
    }

    func testAnAtomicBatchThatGoesBackAndPinsTheSecondWalkKeepsThePinOnTheSecondThroughARestart() throws {
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.tampereTalo, "--mode", "walk", "--at", Tampere.morning])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        // Keskustori → Tampere-talo → Keskustori → Tampere-talo: segments 1 and 3 join the same two places.
        // Walked by choice: an insert with no mode rides a hop where transit is faster (docs/planner.md).
        let batch = try harness.umctl(["batch", try harness.writeBatch([
            "plan insert \(id) \(Tampere.keskustori) --after 2 --mode walk",
            "plan insert \(id) \(Tampere.tampereTalo) --after 3 --mode walk",
            "plan pin \(id) 3 10:00",
            "plan mode \(id) 1 car",
        ]), "--atomic", "--json"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        let answered = try WireCodec.decoder.decode(JSONValue.self, from: Data(batch.stdout.utf8))
        XCTAssertEqual(answered["nodes"]?.arrayValue?.count, 4)
        XCTAssertEqual(answered["pinned_segments"], .array([.number(3)]), "the second walk between the two places, not the first")
        // A pin locks its segment's mode; the mode edit locks the first.
        XCTAssertEqual(pinsAndLocks(answered), ["pin 3 2022-01-12T10:00:00+02:00", "lock 1 car", "lock 3 walk"])
        let segments = try XCTUnwrap(answered["segments"]?.arrayValue)
        XCTAssertEqual(segments.count, 3)
        XCTAssertEqual(segments.last?["leg"]?["departure"]?.stringValue, "2022-01-12T10:00:00+02:00", "\(segments)")
        XCTAssertNotEqual(segments.first?["leg"]?["departure"]?.stringValue, "2022-01-12T10:00:00+02:00", "the first drive is not pinned")

        let stored = try harness.umctl(["plan", "show", id, "--json"]).stdout
        XCTAssertEqual(harness.stop(), 0, harness.log)
        try harness.start(extraArguments: daemonArguments)
        XCTAssertEqual(try harness.umctl(["plan", "show", id, "--json"]).stdout, stored, "byte for byte after a restart")

        // An edit after the restart still finds each decision on its own segment: the first
        // segment goes by bike, the pin (which locks its walk) stays on the third.
        let edited = try harness.json(["plan", "mode", id, "1", "bike"])
        XCTAssertEqual(pinsAndLocks(edited), ["pin 3 2022-01-12T10:00:00+02:00", "lock 1 bike", "lock 3 walk"])
    }
}
