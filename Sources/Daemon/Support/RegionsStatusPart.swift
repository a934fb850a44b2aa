import Foundation
import Synchronization
import Transit
import WireProtocol

/// The `regions` part of `status`, kept encoded: building it (each region's feeds, their service
/// hours on today's service day, its sources) and encoding it is most of a `status` answer's
/// work, yet it changes only when a region is imported, updated or removed, when a realtime
/// feed's state changes, or when a region's day turns. So it is made again only when one of
/// those inputs differs from the ones it was made from, and `status` writes the bytes kept
/// (`StatusAnswerWriter`).
///
/// ```swift
/// let part = RegionsStatusPart(regions: registry)
/// let regionsJSON = try part.encoded(now: clock.now()) // `[{"bounds":…,"name":"tampere",…}]`
/// ```
final class RegionsStatusPart: Sendable {
    private let regions: RegionRegistry
    private let kept = Mutex<Kept?>(nil)

    init(regions: RegionRegistry) {
        self.regions = regions
    }

    /// Everything the part is made from besides the region versions, compared whole.
    private struct Inputs: Equatable {
        var realtimeFeeds: [[RealtimeFeedState]?]
        /// Each region's day of `now` in its zone and in its timetable's zone: the feeds' service
        /// hours and days left are those of that day.
        var days: [[Int]]
    }

    /// A region version the part was made from, held weakly: a removed one is not kept alive,
    /// and one gone can never be taken for a new one at the same address.
    private struct Made {
        weak var handle: RegionHandle?
    }

    private struct Kept {
        /// The region versions, by identity: an import, an update or a removal replaces them.
        var handles: [Made]
        var inputs: Inputs
        /// The zones `days` are taken in, per handle (`RegionHandle.dayZones`).
        var zones: [[TimeZone]]
        var encoded: Data

        func isMade(from handles: [RegionHandle]) -> Bool {
            self.handles.count == handles.count && zip(self.handles, handles).allSatisfy { $0.handle === $1 }
        }
    }

    /// `regions.documents(onDate: nil, now: now)` as JSON, exactly as `WireCodec` encodes it
    /// inside an answer; from the bytes kept when nothing it depends on changed.
    /// - throws: what `RegionRegistry.handles()` throws; an encoding error.
    func encoded(now: Date) throws -> Data {
        let handles = try regions.handles()
        let previous = kept.withLock { $0 }.flatMap { $0.isMade(from: handles) ? $0 : nil }
        let zones = previous?.zones ?? handles.map { $0.dayZones() }
        // Read once and built from: a feed's state changing between two reads would keep the
        // old inputs beside the new bytes, and a state changing back would then serve them.
        let realtimeFeeds = handles.map { regions.realtimeStates(of: $0.name) }
        let inputs = Inputs(realtimeFeeds: realtimeFeeds, days: zones.map { $0.map { ServiceDate.localDay(of: now, in: $0) } })
        if let previous, previous.inputs == inputs { return previous.encoded }
        let documents = zip(handles, realtimeFeeds).map { handle, feeds in
            var document = handle.document(on: now, now: now)
            document.realtimeFeeds = feeds?.map(WireDocuments.realtimeFeed)
            return document
        }
        let encoded = try WireCodec.encoder.encode(documents)
        kept.withLock { $0 = Kept(handles: handles.map { Made(handle: $0) }, inputs: inputs, zones: zones, encoded: encoded) }
        return encoded
    }
}
