@testable import Daemon
import Dispatch
import Foundation
import WireProtocol
import XCTest

/// Issue 44, item 13: an event's fan-out to `watch` clients happens on the hub's own queue, not
/// on the request that caused it (200 idle watchers made `location.set` 80 times slower).
final class EventFanOutTests: XCTestCase {
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
