@testable import Daemon
import Foundation
import Synchronization
import WireProtocol
import XCTest

/// Issue 44, item 13: an event's fan-out to `watch` clients happens on the hub's own thread, not
/// on the request that caused it (200 idle watchers made `location.set` 80 times slower), and
/// each event is encoded once for all of them. Issue 45: the fan-out blocks no task (it is an
/// executor thread; `delivered()` awaits it) and a watcher goes with its consumer.
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

    func testTwoHundredWatchesGetEveryEventInOrderFromTheHubsThreadEachEncodedOnceForAll() async throws {
        let hub = EventHub()
        let handed = (0..<200).map { _ in Handed() }
        let watches = handed.map { record in hub.watch { record.take($0) } }
        XCTAssertEqual(hub.subscriberCount, 200)
        let held = hub.holdDelivery()
        for k in 0..<10 { hub.publish(.placeSaved(name: "p\(k)")) }
        XCTAssertEqual(Set(handed.map { $0.names.count }), [0], "publish returned having handed no watch anything")
        held.open()
        await hub.delivered()
        for record in handed { XCTAssertEqual(record.names, (0..<10).map { "p\($0)" }, "every event, in publishing order") }
        for k in 0..<10 {
            let first = handed[0].lines.withLock { $0[k] }
            XCTAssertTrue(handed.allSatisfy { $0.lines.withLock { $0[k] } === first }, "event \(k) was encoded once for every watch")
        }
        var delivered = await hub.endWatch(watches[0])
        XCTAssertEqual(delivered, 10)
        hub.publish(.placeSaved(name: "after"))
        await hub.delivered()
        XCTAssertEqual(handed[0].names.count, 10, "an ended watch is handed nothing more")
        XCTAssertEqual(handed[1].names.last, "after")
        await hub.finishAll()
        for watch in watches.dropFirst() {
            for await _ in watch.ended {} // finished: a watch ends when the daemon stops
        }
        delivered = await hub.endWatch(watches[1])
        XCTAssertEqual(delivered, 11)
    }

    func testAWatchWhoseClientIsGoneEndsAndIsHandedNothingMore() async throws {
        let hub = EventHub()
        let gone = Handed(accepting: false), staying = Handed()
        let goneWatch = hub.watch { gone.take($0) }
        let stayingWatch = hub.watch { staying.take($0) } // kept: a watch whose `ended` stream goes, goes
        hub.publish(.placeSaved(name: "a"))
        hub.publish(.placeSaved(name: "b"))
        await hub.delivered()
        for await _ in goneWatch.ended {} // ended by the refused write
        XCTAssertEqual(gone.names, ["a"], "the watch was ended at its first refused event")
        XCTAssertEqual(staying.names, ["a", "b"])
        XCTAssertEqual(hub.subscriberCount, 1)
        let delivered = await hub.endWatch(goneWatch)
        XCTAssertEqual(delivered, 0)
        await hub.finishAll()
        withExtendedLifetime(stayingWatch) {}
    }

    func testPublishingLeavesTheFanOutToTheHubsThreadAndTwoHundredWatchersThenGetEveryEventInOrder() async throws {
        let hub = EventHub()
        let watchers = (0..<200).map { _ in hub.subscribe() }
        let held = hub.holdDelivery()
        for k in 0..<10 { hub.publish(.placeSaved(name: "p\(k)")) }
        XCTAssertEqual(Set(watchers.map { hub.waitingBytes(of: $0.id) }), [0],
                       "publish returned having handed no watcher anything: that waits for the hub's thread")
        held.open()
        await hub.delivered()
        XCTAssertTrue(watchers.allSatisfy { (hub.waitingBytes(of: $0.id) ?? 0) > 0 }, "then every watcher has them")
        await hub.finishAll()
        for watcher in watchers {
            var names: [String] = []
            for await event in watcher.events { names.append(event.value["name"]?.stringValue ?? "?") }
            XCTAssertEqual(names, (0..<10).map { "p\($0)" }, "every event, in publishing order")
        }
    }

    func testAWatchGoesWhenTheTaskWaitingOnItIsCancelled() async {
        let hub = EventHub()
        let handed = Handed()
        let watch = hub.watch { handed.take($0) }
        let waiting = Task { for await _ in watch.ended {} } // as the `watch` method's task waits
        XCTAssertEqual(hub.subscriberCount, 1)
        waiting.cancel()
        await waiting.value
        XCTAssertEqual(hub.subscriberCount, 0, "a watch outlived the task waiting on it")
        hub.publish(.placeSaved(name: "after"))
        await hub.delivered()
        XCTAssertEqual(handed.names, [], "a watch whose task went is handed nothing")
    }

    func testAnEventStreamGoesWhenItsConsumerTaskEnds() async {
        let hub = EventHub()
        let (_, events) = hub.subscribe()
        let consumer = Task { for await _ in events {} }
        XCTAssertEqual(hub.subscriberCount, 1)
        consumer.cancel()
        await consumer.value
        XCTAssertEqual(hub.subscriberCount, 0, "an event stream outlived its consumer")
    }

    func testFinishingWaitsForTheEventsPublishedBeforeWithoutBlockingAThread() async {
        let hub = EventHub()
        let (_, events) = hub.subscribe()
        let held = hub.holdDelivery()
        hub.publish(.placeSaved(name: "before the end"))
        // `finishAll` suspends behind the held delivery; opening it from another task lets it end.
        let finishing = Task { await hub.finishAll() }
        held.open()
        await finishing.value
        var names: [String] = []
        for await event in events { names.append(event.value["name"]?.stringValue ?? "?") }
        XCTAssertEqual(names, ["before the end"], "the stream ended after the event published before the end")
    }
}
