@testable import Daemon
import Dispatch
import Foundation
import Synchronization
import WireProtocol
import XCTest

/// Issue 44, item 13: an event's fan-out to `watch` clients happens on the hub's own queue, not
/// on the request that caused it (200 idle watchers made `location.set` 80 times slower), and
/// each event is encoded once for all of them.
final class EventFanOutTests: XCTestCase {
    /// What one watch was handed, in order.
    private final class Handed: Sendable {
        let lines = Mutex<[EventLine]>([])
        let accepting: Bool
        init(accepting: Bool = true) { self.accepting = accepting }
        func take(_ line: EventLine) -> Bool {
            lines.withLock { $0.append(line) }
            return accepting
        }
        var names: [String] { lines.withLock { $0.map { $0.value["name"]?.stringValue ?? "?" } } }
    }

    func testTwoHundredWatchesGetEveryEventInOrderFromTheHubsQueueEachEncodedOnceForAll() async throws {
        let fanOut = DispatchQueue(label: "test-fan-out")
        let hub = EventHub(fanOut: fanOut)
        let handed = (0..<200).map { _ in Handed() }
        let watches = handed.map { record in hub.watch { record.take($0) } }
        XCTAssertEqual(hub.subscriberCount, 200)
        fanOut.suspend()
        for k in 0..<10 { hub.publish(.placeSaved(name: "p\(k)")) }
        XCTAssertEqual(Set(handed.map { $0.names.count }), [0], "publish returned having handed no watch anything")
        fanOut.resume()
        fanOut.sync {}
        for record in handed { XCTAssertEqual(record.names, (0..<10).map { "p\($0)" }, "every event, in publishing order") }
        for k in 0..<10 {
            let first = handed[0].lines.withLock { $0[k] }
            XCTAssertTrue(handed.allSatisfy { $0.lines.withLock { $0[k] } === first }, "event \(k) was encoded once for every watch")
        }
        var delivered = await hub.endWatch(watches[0])
        XCTAssertEqual(delivered, 10)
        hub.publish(.placeSaved(name: "after"))
        fanOut.sync {}
        XCTAssertEqual(handed[0].names.count, 10, "an ended watch is handed nothing more")
        XCTAssertEqual(handed[1].names.last, "after")
        hub.finishAll()
        for watch in watches.dropFirst() {
            for await _ in watch.ended {} // finished: a watch ends when the daemon stops
        }
        delivered = await hub.endWatch(watches[1])
        XCTAssertEqual(delivered, 11)
    }

    func testAWatchWhoseClientIsGoneEndsAndIsHandedNothingMore() async throws {
        let fanOut = DispatchQueue(label: "test-fan-out")
        let hub = EventHub(fanOut: fanOut)
        let gone = Handed(accepting: false), staying = Handed()
        let goneWatch = hub.watch { gone.take($0) }
        _ = hub.watch { staying.take($0) }
        hub.publish(.placeSaved(name: "a"))
        hub.publish(.placeSaved(name: "b"))
        fanOut.sync {}
        for await _ in goneWatch.ended {} // ended by the refused write
        XCTAssertEqual(gone.names, ["a"], "the watch was ended at its first refused event")
        XCTAssertEqual(staying.names, ["a", "b"])
        XCTAssertEqual(hub.subscriberCount, 1)
        let delivered = await hub.endWatch(goneWatch)
        XCTAssertEqual(delivered, 0)
        hub.finishAll()
    }

    func testPublishingLeavesTheFanOutToTheHubsQueueAndTwoHundredWatchersThenGetEveryEventInOrder() async throws {
        let fanOut = DispatchQueue(label: "test-fan-out")
        let hub = EventHub(fanOut: fanOut)
        let watchers = (0..<200).map { _ in hub.subscribe() }
        fanOut.suspend()
        for k in 0..<10 { hub.publish(.placeSaved(name: "p\(k)")) }
        XCTAssertEqual(Set(watchers.map { hub.waitingBytes(of: $0.id) }), [0],
                       "publish returned having handed no watcher anything: that waits for the hub's queue")
        fanOut.resume()
        fanOut.sync {}
        XCTAssertTrue(watchers.allSatisfy { (hub.waitingBytes(of: $0.id) ?? 0) > 0 }, "then every watcher has them")
        hub.finishAll()
        for watcher in watchers {
            var names: [String] = []
            for await event in watcher.events { names.append(event.value["name"]?.stringValue ?? "?") }
            XCTAssertEqual(names, (0..<10).map { "p\($0)" }, "every event, in publishing order")
        }
    }
}
