import CGTFSRealtime
import Foundation

extension RealtimeFeed {
    /// The feed as a GTFS-Realtime `FeedMessage` (`gtfs_realtime_version` "2.0"), packed by
    /// protobuf-c: everything `init(decoding:)` reads is written, so the two round-trip. Each
    /// trip update and alert is one entity under its `entityID`; `vehiclePositionCount` becomes
    /// that many empty vehicle positions. Tests and the benchmark make their feeds with it.
    ///
    /// ```swift
    /// let body = RealtimeFeed(timestamp: now, tripUpdates: [late]).encoded()
    /// ```
    public func encoded() -> Data {
        let arena = CMemory()
        let header: UnsafeMutablePointer<TransitRealtime__FeedHeader> = arena.message(transit_realtime__feed_header__init)
        header.pointee.gtfs_realtime_version = arena.string("2.0")
        if let timestamp {
            header.pointee.has_timestamp = 1
            header.pointee.timestamp = timestamp.posixSeconds
        }
        if isDifferential {
            header.pointee.has_incrementality = 1
            header.pointee.incrementality = TRANSIT_REALTIME__FEED_HEADER__INCREMENTALITY__DIFFERENTIAL
        }
        var entities: [UnsafeMutablePointer<TransitRealtime__FeedEntity>] = []
        entities.reserveCapacity(tripUpdates.count + alerts.count + max(0, vehiclePositionCount))
        for update in tripUpdates {
            let entity = arena.entity(id: update.entityID)
            entity.pointee.trip_update = update.message(in: arena)
            entities.append(entity)
        }
        for alert in alerts {
            let entity = arena.entity(id: alert.entityID)
            entity.pointee.alert = alert.message(in: arena)
            entities.append(entity)
        }
        for index in 0..<max(0, vehiclePositionCount) {
            let entity = arena.entity(id: "vehicle-\(index + 1)")
            entity.pointee.vehicle = arena.message(transit_realtime__vehicle_position__init)
            entities.append(entity)
        }
        let message: UnsafeMutablePointer<TransitRealtime__FeedMessage> = arena.message(transit_realtime__feed_message__init)
        message.pointee.header = header
        (message.pointee.n_entity, message.pointee.entity) = arena.array(entities)

        var data = Data(count: transit_realtime__feed_message__get_packed_size(message))
        data.withUnsafeMutableBytes { bytes in
            _ = transit_realtime__feed_message__pack(message, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
        }
        return data
    }
}

extension RealtimeTripUpdate {
    fileprivate func message(in arena: CMemory) -> UnsafeMutablePointer<TransitRealtime__TripUpdate> {
        let update: UnsafeMutablePointer<TransitRealtime__TripUpdate> = arena.message(transit_realtime__trip_update__init)
        update.pointee.trip = trip.message(in: arena)
        (update.pointee.n_stop_time_update, update.pointee.stop_time_update) = arena.array(stopTimeUpdates.map { $0.message(in: arena) })
        if let delay {
            update.pointee.has_delay = 1
            update.pointee.delay = Int32(clamping: delay)
        }
        if let timestamp {
            update.pointee.has_timestamp = 1
            update.pointee.timestamp = timestamp.posixSeconds
        }
        return update
    }
}

extension RealtimeTripDescriptor {
    fileprivate func message(in arena: CMemory) -> UnsafeMutablePointer<TransitRealtime__TripDescriptor> {
        let trip: UnsafeMutablePointer<TransitRealtime__TripDescriptor> = arena.message(transit_realtime__trip_descriptor__init)
        trip.pointee.trip_id = arena.string(tripID)
        trip.pointee.route_id = arena.string(routeID)
        if let directionID {
            trip.pointee.has_direction_id = 1
            trip.pointee.direction_id = UInt32(clamping: directionID)
        }
        trip.pointee.start_time = arena.string(startTime)
        trip.pointee.start_date = arena.string(startDate)
        if relationship != .scheduled,
           let value = ProtobufEnumName.value(named: relationship.rawValue,
                                              in: transit_realtime__trip_descriptor__schedule_relationship__descriptor) {
            trip.pointee.has_schedule_relationship = 1
            trip.pointee.schedule_relationship.rawValue = value
        }
        return trip
    }
}

extension RealtimeStopTimeUpdate {
    fileprivate func message(in arena: CMemory) -> UnsafeMutablePointer<TransitRealtime__TripUpdate__StopTimeUpdate> {
        let update: UnsafeMutablePointer<TransitRealtime__TripUpdate__StopTimeUpdate> =
            arena.message(transit_realtime__trip_update__stop_time_update__init)
        if let stopSequence {
            update.pointee.has_stop_sequence = 1
            update.pointee.stop_sequence = UInt32(clamping: stopSequence)
        }
        update.pointee.stop_id = arena.string(stopID)
        update.pointee.arrival = arrival?.message(in: arena)
        update.pointee.departure = departure?.message(in: arena)
        if relationship != .scheduled,
           let value = ProtobufEnumName.value(named: relationship.rawValue,
                                              in: transit_realtime__trip_update__stop_time_update__schedule_relationship__descriptor) {
            update.pointee.has_schedule_relationship = 1
            update.pointee.schedule_relationship.rawValue = value
        }
        return update
    }
}

extension RealtimeStopTimeEvent {
    fileprivate func message(in arena: CMemory) -> UnsafeMutablePointer<TransitRealtime__TripUpdate__StopTimeEvent> {
        let event: UnsafeMutablePointer<TransitRealtime__TripUpdate__StopTimeEvent> =
            arena.message(transit_realtime__trip_update__stop_time_event__init)
        if let delay {
            event.pointee.has_delay = 1
            event.pointee.delay = Int32(clamping: delay)
        }
        if let time {
            event.pointee.has_time = 1
            event.pointee.time = time
        }
        if let uncertainty {
            event.pointee.has_uncertainty = 1
            event.pointee.uncertainty = Int32(clamping: uncertainty)
        }
        return event
    }
}

extension RealtimeAlert {
    fileprivate func message(in arena: CMemory) -> UnsafeMutablePointer<TransitRealtime__Alert> {
        let alert: UnsafeMutablePointer<TransitRealtime__Alert> = arena.message(transit_realtime__alert__init)
        (alert.pointee.n_active_period, alert.pointee.active_period) = arena.array(activePeriods.map { period in
            let range: UnsafeMutablePointer<TransitRealtime__TimeRange> = arena.message(transit_realtime__time_range__init)
            if let start = period.start {
                range.pointee.has_start = 1
                range.pointee.start = UInt64(clamping: start)
            }
            if let end = period.end {
                range.pointee.has_end = 1
                range.pointee.end = UInt64(clamping: end)
            }
            return range
        })
        (alert.pointee.n_informed_entity, alert.pointee.informed_entity) = arena.array(informedEntities.map { $0.message(in: arena) })
        // A name the proto does not define is left out, so it reads back as unknown_cause / unknown_effect.
        if let value = ProtobufEnumName.value(named: cause, in: transit_realtime__alert__cause__descriptor) {
            alert.pointee.has_cause = 1
            alert.pointee.cause.rawValue = value
        }
        if let value = ProtobufEnumName.value(named: effect, in: transit_realtime__alert__effect__descriptor) {
            alert.pointee.has_effect = 1
            alert.pointee.effect.rawValue = value
        }
        alert.pointee.url = arena.translatedString(url)
        alert.pointee.header_text = arena.translatedString(header)
        alert.pointee.description_text = arena.translatedString(description)
        return alert
    }
}

extension RealtimeEntitySelector {
    fileprivate func message(in arena: CMemory) -> UnsafeMutablePointer<TransitRealtime__EntitySelector> {
        let selector: UnsafeMutablePointer<TransitRealtime__EntitySelector> = arena.message(transit_realtime__entity_selector__init)
        selector.pointee.agency_id = arena.string(agencyID)
        selector.pointee.route_id = arena.string(routeID)
        if let routeType {
            selector.pointee.has_route_type = 1
            selector.pointee.route_type = Int32(clamping: routeType)
        }
        if let directionID {
            selector.pointee.has_direction_id = 1
            selector.pointee.direction_id = UInt32(clamping: directionID)
        }
        selector.pointee.trip = trip?.message(in: arena)
        selector.pointee.stop_id = arena.string(stopID)
        return selector
    }
}

/// The C memory one `encoded()` call builds its protobuf-c structures in, freed all at once
/// when the call ends (protobuf-c's own `free_unpacked` is only for what it unpacked).
private final class CMemory {
    private var blocks: [UnsafeMutableRawPointer] = []

    deinit {
        for block in blocks { free(block) }
    }

    /// A zeroed message set up by its generated `…__init` function.
    func message<Message>(_ initialize: (UnsafeMutablePointer<Message>?) -> Void) -> UnsafeMutablePointer<Message> {
        let message = keep(calloc(1, MemoryLayout<Message>.stride)).bindMemory(to: Message.self, capacity: 1)
        initialize(message)
        return message
    }

    func entity(id: String) -> UnsafeMutablePointer<TransitRealtime__FeedEntity> {
        let entity: UnsafeMutablePointer<TransitRealtime__FeedEntity> = message(transit_realtime__feed_entity__init)
        entity.pointee.id = string(id)
        return entity
    }

    /// A repeated field: its count and a C array of the pointers (null when empty).
    func array<Element>(_ elements: [UnsafeMutablePointer<Element>]) -> (Int, UnsafeMutablePointer<UnsafeMutablePointer<Element>?>?) {
        guard !elements.isEmpty else { return (0, nil) }
        let array = keep(calloc(elements.count, MemoryLayout<UnsafeMutablePointer<Element>?>.stride))
            .bindMemory(to: UnsafeMutablePointer<Element>?.self, capacity: elements.count)
        for (index, element) in elements.enumerated() { array[index] = element }
        return (elements.count, array)
    }

    /// A C copy of the text; nil stays nil (the field is absent).
    func string(_ text: String?) -> UnsafeMutablePointer<CChar>? {
        guard let text else { return nil }
        return keep(strdup(text)).assumingMemoryBound(to: CChar.self)
    }

    /// No translations: the field is absent.
    func translatedString(_ translations: [RealtimeTranslation]) -> UnsafeMutablePointer<TransitRealtime__TranslatedString>? {
        guard !translations.isEmpty else { return nil }
        let translated: UnsafeMutablePointer<TransitRealtime__TranslatedString> = message(transit_realtime__translated_string__init)
        (translated.pointee.n_translation, translated.pointee.translation) = array(translations.map { translation in
            let item: UnsafeMutablePointer<TransitRealtime__TranslatedString__Translation> =
                message(transit_realtime__translated_string__translation__init)
            item.pointee.text = string(translation.text)
            item.pointee.language = string(translation.language)
            return item
        })
        return translated
    }

    /// Out of memory here is not an input fault; like Swift's own allocations, it stops the process.
    private func keep(_ block: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer {
        guard let block else { preconditionFailure("out of memory while encoding a GTFS-Realtime feed") }
        blocks.append(block)
        return block
    }
}

extension Date {
    /// Whole POSIX seconds, clamped to what the unsigned field can hold.
    fileprivate var posixSeconds: UInt64 {
        let seconds = timeIntervalSince1970.rounded(.down)
        return seconds <= 0 ? 0 : seconds >= 1.8e19 ? UInt64.max : UInt64(seconds)
    }
}
