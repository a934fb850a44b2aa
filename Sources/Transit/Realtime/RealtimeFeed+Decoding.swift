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
    ///   or a message without its header, `gtfs_realtime_version` or another required field.
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
                return .success(RealtimeFeed(message.pointee))
            }
        }
        self = try decoded.get()
    }

    /// protobuf-c has checked every required field, so `header` and its version are present.
    private init(_ message: TransitRealtime__FeedMessage) {
        let header = message.header.pointee
        self.init(timestamp: header.has_timestamp != 0 ? Date(posixSeconds: header.timestamp) : nil,
                  isDifferential: header.has_incrementality != 0
                      && header.incrementality == TRANSIT_REALTIME__FEED_HEADER__INCREMENTALITY__DIFFERENTIAL)
        for entity in UnsafeBufferPointer(start: message.entity, count: message.n_entity) {
            guard let entity = entity?.pointee else { continue }
            let id = String(cString: entity.id)
            if let update = entity.trip_update {
                tripUpdates.append(RealtimeTripUpdate(entityID: id, update.pointee))
            }
            if let alert = entity.alert {
                alerts.append(RealtimeAlert(entityID: id, alert.pointee))
            }
            if entity.vehicle != nil { vehiclePositionCount += 1 }
        }
    }
}

extension RealtimeTripUpdate {
    fileprivate init(entityID: String, _ update: TransitRealtime__TripUpdate) {
        self.init(entityID: entityID,
                  trip: RealtimeTripDescriptor(update.trip.pointee),
                  stopTimeUpdates: UnsafeBufferPointer(start: update.stop_time_update, count: update.n_stop_time_update)
                      .compactMap { $0.map { RealtimeStopTimeUpdate($0.pointee) } },
                  delay: update.has_delay != 0 ? Int(update.delay) : nil,
                  timestamp: update.has_timestamp != 0 ? Date(posixSeconds: update.timestamp) : nil)
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
    fileprivate init(_ update: TransitRealtime__TripUpdate__StopTimeUpdate) {
        var relationship = Relationship.scheduled
        if update.has_schedule_relationship != 0, update.schedule_relationship.rawValue != 0,
           let name = ProtobufEnumName.name(of: update.schedule_relationship.rawValue,
                                            in: transit_realtime__trip_update__stop_time_update__schedule_relationship__descriptor) {
            relationship = Relationship(rawValue: name) ?? .scheduled
        }
        self.init(stopSequence: update.has_stop_sequence != 0 ? Int(update.stop_sequence) : nil,
                  stopID: String(optionalCString: update.stop_id),
                  arrival: update.arrival.map { RealtimeStopTimeEvent($0.pointee) },
                  departure: update.departure.map { RealtimeStopTimeEvent($0.pointee) },
                  relationship: relationship)
    }
}

extension RealtimeStopTimeEvent {
    fileprivate init(_ event: TransitRealtime__TripUpdate__StopTimeEvent) {
        self.init(delay: event.has_delay != 0 ? Int(event.delay) : nil,
                  time: event.has_time != 0 ? event.time : nil,
                  uncertainty: event.has_uncertainty != 0 ? Int(event.uncertainty) : nil)
    }
}

extension RealtimeAlert {
    fileprivate init(entityID: String, _ alert: TransitRealtime__Alert) {
        self.init(entityID: entityID)
        activePeriods = UnsafeBufferPointer(start: alert.active_period, count: alert.n_active_period).compactMap {
            $0.map { ActivePeriod(start: $0.pointee.has_start != 0 ? Int64(clamping: $0.pointee.start) : nil,
                                  end: $0.pointee.has_end != 0 ? Int64(clamping: $0.pointee.end) : nil) }
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

extension Date {
    /// GTFS-Realtime times are unsigned POSIX seconds.
    fileprivate init(posixSeconds seconds: UInt64) {
        self.init(timeIntervalSince1970: TimeInterval(seconds))
    }
}
