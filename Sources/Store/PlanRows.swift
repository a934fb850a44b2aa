import Foundation
import Planner
import SQLite

/// The rows of one plan: writing them from a `RoutePlan` and reading them back.
enum PlanRows {
    /// Child tables, deleted and rewritten when a plan is saved.
    static let childTables = ["plan_node", "plan_segment", "plan_lock", "plan_pinned_departure", "plan_pending_update",
                              "plan_dismissed_update"]

    /// title, time_preference, time_preference_at, pace, from_name, to_name, total_travel_time, starts_at, access
    static func header(_ plan: RoutePlan, title: String) throws -> [SQLiteValue] {
        let preference: (String, SQLiteValue)
        switch plan.timePreference {
        case .leaveNow: preference = ("leave_now", .null)
        case .departAt(let date): preference = ("depart_at", try StoredValues.date(date, field: "departure time"))
        case .arriveBy(let date): preference = ("arrive_by", try StoredValues.date(date, field: "arrival time"))
        }
        return [try StoredValues.name(title, field: "plan title"), .text(preference.0), preference.1,
                .text(plan.pace.rawValue), .text(plan.nodes.first?.place.name ?? ""),
                .text(plan.nodes.last?.place.name ?? ""),
                // Derived; a NaN here comes from a NaN leg, which the leg's own check reports by name.
                .optional(PlanSummary.totalTravelTime(of: plan).flatMap { $0.isNaN ? nil : $0 }),
                try StoredValues.optionalDate(PlanSummary.startsAt(of: plan), field: "plan start"),
                .text(plan.access.rawValue)]
    }

    static func insertChildren(of plan: RoutePlan, id: Int64, into db: StatementCache) throws {
        let planID = SQLiteValue.integer(id)
        for (position, node) in plan.nodes.enumerated() {
            try db.run("""
                INSERT INTO plan_node(plan_id, position, place_name, latitude, longitude, kind, is_inferred,
                is_current_location, stay_seconds, stay_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [planID, .int(position)] + StoredValues.place(node.place, field: "node \(position)")
                    + [.bool(node.isInferred), .bool(node.isCurrentLocation)] + (try stayValues(node.stay, position)))
        }
        for (position, mode) in plan.modes.enumerated() {
            var leg: [SQLiteValue] = [.null, .null, .null, .null, .null, .null, .null]
            if let computed = plan.legs[position] {
                let field = "segment \(position) leg"
                leg = [.text(computed.mode.rawValue),
                       try StoredValues.real(computed.expectedTravelTime, field: "\(field) travel time"),
                       try StoredValues.optionalReal(computed.distance, field: "\(field) distance"),
                       try StoredValues.optionalDate(computed.departure, field: "\(field) departure"),
                       try StoredValues.optionalDate(computed.arrival, field: "\(field) arrival"),
                       .blob(LegBlob.encode(geometry: computed.geometry)),
                       .blob(LegBlob.encode(rides: computed.rides, walks: computed.walks,
                                            walkingIsNoSlower: computed.walkingIsNoSlower, price: computed.price,
                                            accessibility: computed.accessibility))]
            }
            let note = plan.note(ofSegment: position)
            try db.run("""
                INSERT INTO plan_segment(plan_id, position, mode, leg_mode, leg_travel_time, leg_distance,
                leg_departure, leg_arrival, leg_geometry, leg_rides, mode_note_data, error_code, error_message)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [planID, .int(position), .text(mode.rawValue)] + leg
                    + [try note?.mode.map { .text(try StoredModeNote.encode($0)) } ?? .null, .optional(note?.errorCode),
                       .optional(note?.errorMessage)])
        }
        for (key, lock) in plan.locks {
            try db.run("""
                INSERT INTO plan_lock(plan_id, from_place_id, to_place_id, occurrence, mode, departure, duration,
                chosen_lines, avoided_stops) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [planID] + keyValues(key) + [.text(lock.mode.rawValue),
                      try StoredValues.optionalDate(lock.departure, field: "lock departure"),
                      try StoredValues.optionalReal(lock.duration, field: "lock duration"),
                      lock.chosenLines.isEmpty ? .null : .blob(LegBlob.encode(strings: lock.chosenLines)),
                      lock.avoidedStops.isEmpty ? .null
                          : .blob(LegBlob.encode(strings: lock.avoidedStops.map(StoredValues.position)))])
        }
        for pinned in plan.pins.values {
            try db.run("""
                INSERT INTO plan_pinned_departure(plan_id, from_place_id, to_place_id, occurrence, departure, duration,
                trip_ids, leg) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [planID] + keyValues(pinned.segment) + [
                      try StoredValues.date(pinned.departure, field: "pinned departure"),
                      try StoredValues.real(pinned.duration, field: "pinned duration"),
                      .blob(LegBlob.encode(strings: pinned.tripIDs)),
                      pinned.leg.map { .blob(LegBlob.encode(leg: $0)) } ?? .null])
        }
        for (key, update) in plan.pending {
            try db.run("""
                INSERT INTO plan_pending_update(plan_id, from_place_id, to_place_id, occurrence, selected_leg, latest_leg)
                VALUES (?, ?, ?, ?, ?, ?)
                """, [planID] + keyValues(key)
                    + [.blob(LegBlob.encode(leg: update.selected)), .blob(latestBlob(update))])
        }
        for (key, leg) in plan.dismissed {
            try db.run("""
                INSERT INTO plan_dismissed_update(plan_id, from_place_id, to_place_id, occurrence, latest_leg)
                VALUES (?, ?, ?, ?, ?)
                """, [planID] + keyValues(key) + [.blob(LegBlob.encode(leg: leg))])
        }
    }

    /// The `latest_leg` column: the proposed leg, or the "no ride can be caught" answer (an `N`
    /// blob: no migration, the column already holds blobs read whole).
    static func latestBlob(_ update: PendingSegmentUpdate) -> [UInt8] {
        switch update.proposal {
        case .ride(let latest): LegBlob.encode(leg: latest)
        case .nothingCatchable(let answer): LegBlob.encode(noCatchableRide: answer)
        }
    }

    /// from_place_id, to_place_id, occurrence: a segment's key as its decisions are stored.
    static func keyValues(_ key: SegmentKey) -> [SQLiteValue] {
        [.text(key.fromID), .text(key.toID), .int(key.occurrence)]
    }

    /// The segment key in the first three columns of `row` (from, to, occurrence).
    static func segmentKey(_ row: Row) -> SegmentKey {
        SegmentKey(fromID: row.string(0), toID: row.string(1), occurrence: row.int(2))
    }

    static func load(id: Int64, from db: StatementCache) throws -> StoredPlan {
        let planID = SQLiteValue.integer(id)
        let headers = try db.query("""
            SELECT title, time_preference, time_preference_at, pace, created_at, updated_at, access, generation
            FROM plan WHERE id = ?
            """, [planID]) { row in
            (title: row.string(0), preference: try timePreference(row.string(1), row.optionalDouble(2)),
             pace: try StoredValues.pace(row.string(3)), access: try StoredValues.access(row.string(6)),
             createdAt: StoredValues.date(row, 4), updatedAt: StoredValues.date(row, 5), generation: row.int64(7))
        }
        guard let header = headers.first else { throw StoreError.notFound("plan \(id)") }

        let nodes = try db.query("""
            SELECT position, place_name, latitude, longitude, kind, is_inferred, is_current_location, stay_seconds, stay_until
            FROM plan_node WHERE plan_id = ? ORDER BY position
            """, [planID]) { row in
            (position: row.int(0),
             node: PlanNode(place: try StoredValues.place(row, at: 1), isInferred: row.bool(5),
                            isCurrentLocation: row.bool(6),
                            stay: row.optionalDouble(7).map(NodeStay.duration)
                                ?? StoredValues.optionalDate(row, 8).map(NodeStay.until)))
        }
        let segments = try db.query("""
            SELECT position, mode, leg_mode, leg_travel_time, leg_distance, leg_departure, leg_arrival,
            leg_geometry, leg_rides, mode_note_data, error_code, error_message FROM plan_segment WHERE plan_id = ? ORDER BY position
            """, [planID]) { row in
            var leg: RouteLeg?
            if let legMode = row.optionalString(2) {
                let transit = try LegBlob.decodeRides(row.blob(8))
                leg = RouteLeg(mode: try StoredValues.mode(legMode), expectedTravelTime: row.double(3),
                               distance: row.optionalDouble(4), departure: StoredValues.optionalDate(row, 5),
                               arrival: StoredValues.optionalDate(row, 6),
                               geometry: try LegBlob.decodeGeometry(row.blob(7)),
                               rides: transit.rides, walks: transit.walks, walkingIsNoSlower: transit.walkingIsNoSlower,
                               price: transit.price, accessibility: transit.accessibility)
            }
            let note = SegmentNote(mode: try row.optionalString(9).map(StoredModeNote.decode), errorCode: row.optionalString(10),
                                   errorMessage: row.optionalString(11))
            return (position: row.int(0), mode: try StoredValues.mode(row.string(1)), leg: leg, note: note)
        }
        guard nodes.map(\.position) == Array(0..<nodes.count),
              segments.map(\.position) == Array(0..<segments.count) else {
            throw StoreError.corruptRecord("plan \(id) has gaps in its node or segment positions")
        }

        var locks: [SegmentKey: SegmentLock] = [:]
        for (key, lock) in try db.query("""
            SELECT from_place_id, to_place_id, occurrence, mode, departure, duration, chosen_lines, avoided_stops
            FROM plan_lock WHERE plan_id = ?
            """, [planID], { row in
            (segmentKey(row),
             SegmentLock(mode: try StoredValues.mode(row.string(3)), departure: StoredValues.optionalDate(row, 4),
                         duration: row.optionalDouble(5),
                         chosenLines: try row.optionalBlob(6).map(LegBlob.decodeStrings) ?? [],
                         avoidedStops: try (row.optionalBlob(7).map(LegBlob.decodeStrings) ?? []).map(StoredValues.position)))
        }) {
            locks[key] = lock
        }
        let pinned = try db.query("""
            SELECT from_place_id, to_place_id, occurrence, departure, duration, trip_ids, leg
            FROM plan_pinned_departure WHERE plan_id = ?
            """, [planID]) { row in
            PinnedDeparture(segment: segmentKey(row),
                            departure: StoredValues.date(row, 3), duration: row.double(4),
                            tripIDs: try LegBlob.decodeStrings(row.blob(5)),
                            leg: try row.optionalBlob(6).map(LegBlob.decodeLeg))
        }
        var pending: [SegmentKey: PendingSegmentUpdate] = [:]
        for update in try db.query("""
            SELECT from_place_id, to_place_id, occurrence, selected_leg, latest_leg FROM plan_pending_update WHERE plan_id = ?
            """, [planID], { row in
            let selected = try LegBlob.decodeLeg(row.blob(3)), latest = row.blob(4)
            let proposal: PendingSegmentUpdate.Proposal = LegBlob.isNoCatchableRide(latest)
                ? .nothingCatchable(try LegBlob.decodeNoCatchableRide(latest)) : .ride(try LegBlob.decodeLeg(latest))
            return PendingSegmentUpdate(segment: segmentKey(row), selected: selected, proposal: proposal)
        }) {
            pending[update.segment] = update
        }
        var dismissed: [SegmentKey: RouteLeg] = [:]
        for (key, leg) in try db.query("""
            SELECT from_place_id, to_place_id, occurrence, latest_leg FROM plan_dismissed_update WHERE plan_id = ?
            """, [planID], { row in
            (segmentKey(row), try LegBlob.decodeLeg(row.blob(3)))
        }) {
            dismissed[key] = leg
        }

        let plan: RoutePlan
        do {
            // The notes are stored by position; the plan keys them by segment.
            let keys = try RoutePlan(nodes: nodes.map(\.node), modes: segments.map(\.mode)).segmentKeys
            let notes = Dictionary(zip(keys, segments.map(\.note)).filter { !$0.1.isEmpty }, uniquingKeysWith: { first, _ in first })
            plan = try RoutePlan(restoring: nodes.map(\.node), modes: segments.map(\.mode), legs: segments.map(\.leg),
                                 timePreference: header.preference, pace: header.pace,
                                 locks: locks, pins: pinned, pending: pending, dismissed: dismissed, access: header.access,
                                 notes: notes)
        } catch {
            throw StoreError.corruptRecord("plan \(id) does not form a valid plan: \(error)")
        }
        return StoredPlan(id: id, title: header.title, plan: plan, createdAt: header.createdAt, updatedAt: header.updatedAt,
                          generation: header.generation)
    }

    /// stay_seconds, stay_until of a node.
    static func stayValues(_ stay: NodeStay?, _ position: Int) throws -> [SQLiteValue] {
        switch stay {
        case nil: [.null, .null]
        case .duration(let seconds)?: [try StoredValues.real(seconds, field: "node \(position) stay"), .null]
        case .until(let date)?: [.null, try StoredValues.date(date, field: "node \(position) stay until")]
        }
    }

    static func timePreference(_ raw: String, _ at: Double?) throws -> TimePreference {
        switch (raw, at) {
        case ("leave_now", _): return .leaveNow
        case ("depart_at", let at?): return .departAt(Date(timeIntervalSinceReferenceDate: at))
        case ("arrive_by", let at?): return .arriveBy(Date(timeIntervalSinceReferenceDate: at))
        default: throw StoreError.corruptRecord("unknown time preference \(raw)")
        }
    }
}
