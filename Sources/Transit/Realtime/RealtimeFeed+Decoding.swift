import CGTFSRealtime
import Foundation

extension RealtimeFeed {
    /// The largest body decoded (32 MiB). A feed with every trip of a large city's day is a few
    /// MiB; anything bigger is a mistake or an attack, and protobuf-c would hold several times
    /// its size in memory. A fetcher should stop reading a download at this size too.
    public static let maximumBytes = 32 << 20

    /// Decodes a GTFS-Realtime `FeedMessage` with protobuf-c (`gtfs-realtime.proto`).
    ///
    /// ```swift
    /// let feed = try RealtimeFeed(decoding: body)
    /// for update in feed.tripUpdates { … }
    /// ```
    /// Fields the proto marks optional (`has_…` or a null pointer) become nil when absent; enum
    /// values become their lower-case names, and a number the proto does not define reads as the
    /// field's default, as proto2 does. Vehicle positions are only counted. Whatever else the
    /// proto holds (vehicle descriptors, trip properties, shapes, trip modifications, alert
    /// severity, images and text-to-speech texts, extensions) is ignored.
    /// - throws: `TransitError.realtimeFeedInvalid`, naming what was wrong: an empty body, one
    ///   above `maximumBytes`, an HTML page, bytes that are not protobuf (garbage or truncated),
    ///   a message without its header, `gtfs_realtime_version` or another required field, or an
    ///   instant outside `RealtimeInstant.range` (checked here, so that nothing later computes
    ///   with a time before 1970 or after 9999).
    public init(decoding data: Data) throws(TransitError) {
        guard !data.isEmpty else { throw .realtimeFeedInvalid(.empty) }
        guard data.count <= Self.maximumBytes else {
            throw .realtimeFeedInvalid(.tooLarge(bytes: data.count, limit: Self.maximumBytes))
        }
        // The arena frees everything protobuf-c allocated when this call ends, decoded or not.
        let arena = ProtobufArena()
        let decoded: Result<RealtimeFeed, TransitError> = arena.withAllocator { allocator in
            data.withUnsafeBytes { raw in
                guard let message = transit_realtime__feed_message__unpack(
                    allocator, raw.count, raw.baseAddress?.assumingMemoryBound(to: UInt8.self)) else {
                    return .failure(.realtimeFeedInvalid(ProtobufWireDiagnosis.refusal(for: raw)))
                }
                do throws(RealtimeFeedRefusal) {
                    return .success(try RealtimeFeed(message.pointee))
                } catch {
                    return .failure(.realtimeFeedInvalid(error))
                }
            }
        }
        self = try decoded.get()
    }

    /// protobuf-c has checked every required field, so `header` and its version are present.
    /// - throws: `.instantOutOfRange` naming the first time outside `RealtimeInstant.range`.
    private init(_ message: TransitRealtime__FeedMessage) throws(RealtimeFeedRefusal) {
        let header = message.header.pointee
        self.init(timestamp: header.has_timestamp != 0 ? try RealtimeInstant.date(header.timestamp, field: "header.timestamp") : nil,
                  isDifferential: header.has_incrementality != 0
                      && header.incrementality == TRANSIT_REALTIME__FEED_HEADER__INCREMENTALITY__DIFFERENTIAL)
        for (position, entity) in UnsafeBufferPointer(start: message.entity, count: message.n_entity).enumerated() {
            guard let entity = entity?.pointee else { continue }
            let id = String(cString: entity.id)
            let path = "entity[\(position)]"
            if let update = entity.trip_update {
                tripUpdates.append(try RealtimeTripUpdate(entityID: id, update.pointee, path: path + ".trip_update"))
            }
            if let alert = entity.alert {
                alerts.append(try RealtimeAlert(entityID: id, alert.pointee, path: path + ".alert"))
            }
            if entity.vehicle != nil { vehiclePositionCount += 1 }
        }
    }
}

extension RealtimeTripUpdate {
    fileprivate init(entityID: String, _ update: TransitRealtime__TripUpdate, path: String) throws(RealtimeFeedRefusal) {
        var stopTimeUpdates: [RealtimeStopTimeUpdate] = []
        for (position, stopUpdate) in UnsafeBufferPointer(start: update.stop_time_update, count: update.n_stop_time_update).enumerated() {
            guard let stopUpdate else { continue }
            stopTimeUpdates.append(try RealtimeStopTimeUpdate(stopUpdate.pointee, path: "\(path).stop_time_update[\(position)]"))
        }
        self.init(entityID: entityID,
                  trip: RealtimeTripDescriptor(update.trip.pointee),
                  stopTimeUpdates: stopTimeUpdates,
                  delay: update.has_delay != 0 ? Int(update.delay) : nil,
                  timestamp: update.has_timestamp != 0 ? try RealtimeInstant.date(update.timestamp, field: path + ".timestamp") : nil)
    }
}

extension RealtimeTripDescriptor {
    fileprivate init(_ trip: TransitRealtime__TripDescriptor) {
        var relationship = Relationship.scheduled
        if trip.has_schedule_relationship != 0, trip.schedule_relationship.rawValue != 0,
           let name = ProtobufEnumName.name(of: trip.schedule_relationship.rawValue,
                                            in: transit_realtime__trip_descriptor__schedule_relationship__descriptor) {
            relationship = Relationship(rawValue: name) ?? .scheduled
        }
        self.init(tripID: String(optionalCString: trip.trip_id),
                  routeID: String(optionalCString: trip.route_id),
                  directionID: trip.has_direction_id != 0 ? Int(trip.direction_id) : nil,
                  startTime: String(optionalCString: trip.start_time),
                  startDate: String(optionalCString: trip.start_date),
                  relationship: relationship)
    }
}

extension RealtimeStopTimeUpdate {
    fileprivate init(_ update: TransitRealtime__TripUpdate__StopTimeUpdate, path: String) throws(RealtimeFeedRefusal) {
        var relationship = Relationship.scheduled
        if update.has_schedule_relationship != 0, update.schedule_relationship.rawValue != 0,
           let name = ProtobufEnumName.name(of: update.schedule_relationship.rawValue,
                                            in: transit_realtime__trip_update__stop_time_update__schedule_relationship__descriptor) {
            relationship = Relationship(rawValue: name) ?? .scheduled
        }
        self.init(stopSequence: update.has_stop_sequence != 0 ? Int(update.stop_sequence) : nil,
                  stopID: String(optionalCString: update.stop_id),
                  arrival: try update.arrival.map { (event) throws(RealtimeFeedRefusal) in
                      try RealtimeStopTimeEvent(event.pointee, path: path + ".arrival")
                  },
                  departure: try update.departure.map { (event) throws(RealtimeFeedRefusal) in
                      try RealtimeStopTimeEvent(event.pointee, path: path + ".departure")
                  },
                  relationship: relationship)
    }
}

extension RealtimeStopTimeEvent {
    fileprivate init(_ event: TransitRealtime__TripUpdate__StopTimeEvent, path: String) throws(RealtimeFeedRefusal) {
        self.init(delay: event.has_delay != 0 ? Int(event.delay) : nil,
                  time: event.has_time != 0 ? try RealtimeInstant.seconds(event.time, field: path + ".time") : nil,
                  uncertainty: event.has_uncertainty != 0 ? Int(event.uncertainty) : nil)
    }
}

extension RealtimeAlert {
    fileprivate init(entityID: String, _ alert: TransitRealtime__Alert, path: String) throws(RealtimeFeedRefusal) {
        self.init(entityID: entityID)
        for (position, period) in UnsafeBufferPointer(start: alert.active_period, count: alert.n_active_period).enumerated() {
            guard let period = period?.pointee else { continue }
            let field = "\(path).active_period[\(position)]"
            activePeriods.append(ActivePeriod(
                start: period.has_start != 0 ? try RealtimeInstant.seconds(period.start, field: field + ".start") : nil,
                end: period.has_end != 0 ? try RealtimeInstant.seconds(period.end, field: field + ".end") : nil))
        }
        informedEntities = UnsafeBufferPointer(start: alert.informed_entity, count: alert.n_informed_entity).compactMap {
            $0.map { RealtimeEntitySelector($0.pointee) }
        }
        if alert.has_cause != 0,
           let name = ProtobufEnumName.name(of: alert.cause.rawValue, in: transit_realtime__alert__cause__descriptor) {
            cause = name
        }
        if alert.has_effect != 0,
           let name = ProtobufEnumName.name(of: alert.effect.rawValue, in: transit_realtime__alert__effect__descriptor) {
            effect = name
        }
        url = [RealtimeTranslation](alert.url)
        header = [RealtimeTranslation](alert.header_text)
        description = [RealtimeTranslation](alert.description_text)
    }
}

extension RealtimeEntitySelector {
    fileprivate init(_ selector: TransitRealtime__EntitySelector) {
        self.init(agencyID: String(optionalCString: selector.agency_id),
                  routeID: String(optionalCString: selector.route_id),
                  routeType: selector.has_route_type != 0 ? Int(selector.route_type) : nil,
                  directionID: selector.has_direction_id != 0 ? Int(selector.direction_id) : nil,
                  trip: selector.trip.map { RealtimeTripDescriptor($0.pointee) },
                  stopID: String(optionalCString: selector.stop_id))
    }
}

extension [RealtimeTranslation] {
    /// An absent `TranslatedString` is no translations.
    fileprivate init(_ string: UnsafeMutablePointer<TransitRealtime__TranslatedString>?) {
        guard let string = string?.pointee else { self = []; return }
        self = UnsafeBufferPointer(start: string.translation, count: string.n_translation).compactMap {
            $0.map { RealtimeTranslation(text: String(cString: $0.pointee.text), language: String(optionalCString: $0.pointee.language)) }
        }
    }
}

extension String {
    /// protobuf-c leaves an absent optional string null.
    fileprivate init?(optionalCString pointer: UnsafeMutablePointer<CChar>?) {
        guard let pointer else { return nil }
        self.init(cString: pointer)
    }
}
