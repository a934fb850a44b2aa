import FoundationEssentials
import WireProtocol

/// How results look for a person. Scripts use `--json` instead, which prints the result as is.
enum Render {
    /// A duration read alone, by the one display rule (`ShownTime`: rounded, "1 h 47 min").
    static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "-" }
        return ShownTime.text(seconds: seconds)
    }

    /// A duration shown beside its start and end times: their shown difference (`ShownTime`),
    /// so the three always add up; `seconds` alone when a time is missing.
    static func duration(_ seconds: Double?, from start: String?, to end: String?) -> String {
        ShownTime.text(from: start, to: end) ?? duration(seconds)
    }

    /// How long a piece of work took: "440 ms" under a second ("under 1 ms" below half of
    /// one), else seconds to a tenth ("12.3 s"); never "0.0 s" for work that took time.
    static func elapsed(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "-" }
        if seconds < 0.9995 {
            let milliseconds = Int((seconds * 1000).rounded())
            return milliseconds < 1 ? "under 1 ms" : "\(milliseconds) ms"
        }
        return FixedDecimals.text(seconds, decimals: 1) + " s"
    }

    static func distance(_ metres: Double?) -> String {
        guard let metres, metres.isFinite else { return "-" }
        if metres < 1000 { return "\(Int(metres.rounded())) m" }
        return FixedDecimals.text(metres / 1000, decimals: 1) + " km"
    }

    /// `HH:MM` of an ISO 8601 instant the daemon wrote in the region's zone; with the date when
    /// `withDate`.
    static func clock(_ iso: String?, withDate: Bool = false) -> String {
        // The "T" searched among the bytes: `firstIndex(of: Character)` segmented every
        // character before it (4 K instructions a call; `status` makes two).
        guard let iso, let t = iso.utf8.firstIndex(of: UInt8(ascii: "T")) else { return "--:--" }
        let time = String(iso[iso.index(after: t)...].prefix(5))
        return withDate ? "\(iso[..<t]) \(time)" : time
    }

    /// This machine's zone, which every "when" column (history, imports, plan changes) uses.
    static var machineZone: String { WireTime.zoneName(identifier: MachineZone.identifier) }

    /// An instant the daemon wrote, as `YYYY-MM-DD HH:MM` in this machine's zone.
    static func machineClock(_ iso: String?, withDate: Bool = true) -> String {
        guard let iso, let date = WireTime.date(from: iso) else { return clock(iso, withDate: withDate) }
        return clock(WireTime.string(from: date, offset: MachineZone.offset(at: date)), withDate: withDate)
    }

    static func table(_ header: [String], _ rows: [[String]]) -> String {
        var widths = header.map(DisplayWidth.of)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], DisplayWidth.of(cell))
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : DisplayWidth.padded(cell, to: widths[index])
            }.joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }

    static func coordinate(_ lat: Double, _ lon: Double) -> String {
        FixedDecimals.text(lat, decimals: 5) + "," + FixedDecimals.text(lon, decimals: 5)
    }

    /// "note: …" for each place typed as text that was not matched exactly (never a silent swap).
    static func matchNotes(_ places: [PlaceDocument]) -> [String] {
        places.compactMap { $0.matchNote.map { "note: \($0)" } }
    }

    static func plan(_ plan: PlanDocument) -> String {
        var lines: [String] = []
        // Times on another day than the one the plan is for carry their day ("06:02 +1d").
        let day = plan.timePreference.time ?? plan.nodes.first?.time
        func dayClock(_ iso: String?) -> String { DayMark.clock(iso, askedDay: day) }
        var preference: String
        switch plan.timePreference.kind {
        case "depart_at": preference = "depart at \(clock(plan.timePreference.time, withDate: true))"
        case "arrive_by": preference = "arrive by \(clock(plan.timePreference.time, withDate: true))"
        default: preference = "leave now"
        }
        for pinned in plan.pinnedNumbers where plan.segments.indices.contains(pinned - 1) {
            if let departure = plan.pinnedDeparture(ofSegment: pinned) {
                preference += "; seg \(pinned) pinned to leave \(dayClock(departure))"
            }
        }
        lines.append("Plan \(plan.id): \(plan.title ?? "")")
        let access = switch plan.access {
        case .wheelchair?: ", step-free (wheelchair)"
        case .wheelchairStrict?: ", step-free (wheelchair, strict)"
        case .any?, nil: ""
        }
        lines.append("  \(preference), pace \(plan.pace)\(access), times in \(plan.timeZone), generation \(plan.generation)")
        if let note = plan.coverageNote { lines.append("  note: \(note); no transit that day") }
        lines += matchNotes(plan.matched ?? []).map { "  " + $0 }
        // A segment's own mode note is shown under it: the answer's "segment N …" line saying the
        // same is left out here (trial 51: each `mode:` note showed twice in an edit's answer).
        lines += (plan.modeNotes ?? []).filter { !repeatsASegmentsNote($0, plan.segments) }.map { "  " + $0 }
        let numberWidth = String(plan.nodes.count).count  // node and segment numbers stay in one column
        for (index, node) in plan.nodes.enumerated() {
            var flags: [String] = []
            if node.inferred { flags.append("inferred") }
            if node.currentLocation { flags.append("current location") }
            if let seconds = node.stayS { flags.append("stay \(duration(seconds)), leave \(dayClock(node.departure))") }
            if let until = node.stayUntil {
                flags.append("stay until \(dayClock(until))" + (node.stayNote.map { ": \($0)" } ?? "") + ", leave \(dayClock(node.departure))")
            }
            let suffix = flags.isEmpty ? "" : "  (\(flags.joined(separator: ", ")))"
            lines.append("  \(DisplayWidth.number(index + 1, width: numberWidth)). \(dayClock(node.time))  \(node.name)\(suffix)")
            guard index < plan.segments.count else { continue }
            let segment = plan.segments[index]
            var text = "        seg \(DisplayWidth.number(index + 1, width: numberWidth)): \(FixedWidth.cell(segment.mode.rawValue, width: 7))"
            // A ride missed on foot: its walk shown from when the traveller can leave, the ride
            // marked missed (the leg keeps its ride's times; no step before its node, trial 51).
            let missedOnFoot = MissedConnection.missedRide(segment) != nil
            let steps = segment.leg.map { legSteps($0, askedDay: day, missedLeaving: missedOnFoot ? node.departure ?? node.time : nil) } ?? []
            if let leg = segment.leg {
                // A ride missed on foot has no duration anyone travels: its span runs from a walk
                // timed back to the missed ride (trial 51: "transit 2 h 23 min").
                if missedOnFoot {
                    text += " ride missed, \(distance(leg.distanceM))"
                } else if let (moving, wait) = movingAndWaiting(leg) {
                    // A walk's minutes are walking minutes; the time its span holds beyond them is waiting
                    // (trial 51: "walk 9 min, 135 m" for a 2-min walk and 7 min waiting for the next ride).
                    text += " \(moving), \(distance(leg.distanceM)), then wait \(wait)"
                } else {
                    text += " \(duration(leg.durationS, from: leg.departure, to: leg.arrival)), \(distance(leg.distanceM))"
                }
                // A walk or drive pinned later than the traveller gets there: they wait, then leave.
                if leg.rides.isEmpty, node.stayS == nil, node.stayUntil == nil, let leaves = leg.departure, leaves != node.time {
                    text += ", leaves \(dayClock(leaves))"
                }
                if !steps.isEmpty {
                    text += "; lines \(leg.rides.map(\.line).joined(separator: ", "))"
                    if leg.transfers > 0 { text += "; \(leg.transfers) transfer\(leg.transfers == 1 ? "" : "s")" }
                } else if !leg.rides.isEmpty {
                    let rides = leg.rides.map {
                        "\($0.vehicle) \($0.line) \(LiveTimes.departure($0, askedDay: day)) \($0.from) → "
                            + "\(LiveTimes.arrival($0, askedDay: day)) \($0.to)\(headwayNote($0))\(LiveTimes.cancelledMark($0))"
                    }
                    text += "; " + rides.joined(separator: "; ")
                    if leg.transfers > 0 { text += "; \(leg.transfers) transfer\(leg.transfers == 1 ? "" : "s")" }
                }
                if let price = legPrice(leg, mode: segment.mode) { text += "; \(price)" }
                if let access = WheelchairOption.label(leg.accessibility) { text += "; \(access)" }
            } else if let error = segment.error {
                // The words only: the wire's code is for --json and the exit status, not a sentence.
                text += " no leg: \(error.message)"
            } else {
                text += " not computed"
            }
            var marks: [String] = []
            if segment.locked { marks.append("locked") }
            if segment.lineChoiceReplaced, let leg = segment.leg {
                // An accepted proposal on another line: the choice is named, never dropped silently.
                marks.append("line choice \(segment.chosenLines.joined(separator: ", ")) replaced by "
                             + leg.rides.map { "\($0.vehicle) \($0.line)" }.joined(separator: ", "))
            } else if !segment.chosenLines.isEmpty {
                marks.append("chose \(segment.chosenLines.joined(separator: ", "))")
            }
            if plan.pinnedNumbers.contains(index + 1) { marks.append("pinned") }
            // Late or missed as the daemon judged it (`missed_as`: late when it arrives after it is due).
            if segment.missedConnection { marks.append(segment.missedAs ?? "missed") }
            if !marks.isEmpty { text += "  [\(marks.joined(separator: ", "))]" }
            lines.append(text)
            // Why the segment has its mode (stored with the plan: a walked hop, a ride the user chose).
            if let note = segment.modeNote { lines.append("          mode: \(note)") }
            lines.append(contentsOf: steps)
            if segment.missedConnection, let leg = segment.leg {
                let update = plan.pending.first { $0.segment == index + 1 }
                let (pending, nothing): (Bool, String) = switch update?.proposal {
                case .ride?: (true, "")
                case .nothingCatchable(let answer)?:
                    (false, answer.walkArrival == nil ? "; no ride can be caught instead, see below" : "; no ride can be caught instead; walking can, see below")
                case nil: (false, "")
                }
                // When the traveller must be at its end, as the daemon judged it (`due`): not the
                // node's shown time, which is when the late leg gets them there (trial 52: "must be
                // at near Turjankatu by 10:41:07, 0 s too late" before a 10:39 leg). A segment an
                // arrive-by plan shows missed without one is not late but left before a stay
                // "until" ends (`missedAfterAStayUntil`): the missed words say that.
                if segment.missedAs == "late", let dueTime = segment.due, plan.nodes.indices.contains(index + 1) {
                    let end = plan.nodes[index + 1]
                    let (arrives, due) = MissedConnection.clocks(leg.arrival, dueTime, askedDay: day)
                    lines.append("          late: it arrives \(arrives) but you must be \(end.at) by \(due)"
                                 + MissedConnection.gap(from: dueTime, to: leg.arrival)
                                 + (pending ? (leg.rides.isEmpty ? "; leaving in time is pending below"
                                                                 : "; the latest one that arrives in time is pending below") : nothing))
                    if let gives = ConstraintConflict.wording(plan, missedSegment: index + 1, askedDay: day) {
                        lines.append("          \(gives)")
                    }
                } else {
                    // With a stay, the leg waits for the end of it, not for the arrival.
                    let ready = node.departure ?? node.time
                    if let (ride, before, reached) = MissedConnection.missedChange(segment) {
                        // Caught at its start, the journey is missed at a change a delay broke (trial 58 F1).
                        let (leaves, there) = MissedConnection.clocks(ride.departure, reached, askedDay: day)
                        lines.append("          missed: the change at \(ride.from): \(ride.vehicle) \(ride.line) leaves at \(leaves); "
                                     + "\(before.vehicle) \(before.line) gets you there at \(there)"
                                     + MissedConnection.gap(from: ride.departure, to: reached)
                                     + (pending ? "; the best one you can still catch is pending below" : nothing))
                    } else if let (ride, reached) = MissedConnection.missedRide(segment) {
                        // The leg keeps its ride's times; the daemon says when the walk gets the traveller to its stop.
                        let (leaves, there) = MissedConnection.clocks(ride.departure, reached, askedDay: day)
                        lines.append("          missed: \(ride.vehicle) \(ride.line) leaves \(ride.from) at \(leaves); the walk gets you there at \(there)"
                                     + MissedConnection.gap(from: ride.departure, to: reached)
                                     + (pending ? "; the next one you can catch is pending below" : nothing))
                    } else {
                        let (leaves, there) = MissedConnection.clocks(leg.departure, ready, askedDay: day)
                        lines.append("          missed: it leaves \(leaves) but you \(node.departure == nil ? "get there" : "can leave") at \(there)"
                                     + MissedConnection.gap(from: leg.departure, to: ready)
                                     + (pending ? (leg.rides.isEmpty ? "; leaving when you can is pending below"
                                                                     : "; the next one you can catch is pending below") : nothing))
                    }
                    if let gives = ConstraintConflict.wording(plan, missedSegment: index + 1, askedDay: day) {
                        lines.append("          \(gives)")
                    }
                }
            }
        }
        let missed = plan.segments.contains(where: \.missedConnection)
        // A walk or drive pinned before the traveller gets there misses no connection: its time.
        let onlyStreets = plan.segments.allSatisfy { $0.leg?.rides.isEmpty ?? true }
        let why = plan.timePreference.kind == "arrive_by" ? "it arrives too late"
            : onlyStreets ? "a pinned time is missed" : "a connection is missed"
        // The total spans the first and last times shown above: their shown difference (`ShownTime`).
        // An arrive-by plan shown following its late pins' proposals has that total (trial 52:
        // "none (it arrives too late)" under node times that arrive in time).
        // As pinned it arrives when the last leg, late, does ("as pinned it arrives 10:25, too late");
        // a late leg before the last says when it arrives (trial 53: "as pinned it arrives too late").
        let proposals = plan.pending.count == 1 ? "the proposal" : "the proposals"
        let lastLate = plan.segments.indices.last { plan.segments[$0].missedConnection && plan.segments[$0].missedAs == "late" }
        let asPinned = lastLate.flatMap { index in
            plan.segments[index].leg?.arrival.map { arrival in
                "\(index == plan.segments.count - 1 ? "it" : "segment \(index + 1)") arrives \(DayMark.clock(arrival, askedDay: day)), too late"
            }
        } ?? (plan.segments.contains { $0.missedConnection && $0.missedAs == "missed" } ? "a connection is missed" : why)
        let total = plan.totalDurationS.map { duration($0, from: plan.nodes.first?.time, to: plan.nodes.last?.time) }
            ?? plan.totalFollowingProposalsS.map {
                duration($0, from: plan.nodes.first?.time, to: plan.nodes.last?.time) + " following \(proposals) (as pinned \(asPinned))"
            }
            ?? (missed ? "none (\(why))" : "incomplete (a leg is missing)")
        // The price only when every part is known; when one is not, the total says why (trial 50:
        // a fare left out with nothing said). A known price says what it leaves out or prices
        // otherwise than planned (a missed ride priced as its proposal, driving with no cost set:
        // trial 51). A plan that pays nothing ("no fare") says nothing.
        let price = plan.price.map { ", price \(money($0))" + (plan.priceNote.map { " (\($0))" } ?? "") }
            ?? plan.priceNote.flatMap { $0 == "no fare" ? nil : ", price not known: \($0)" } ?? ""
        lines.append("  total: \(total), \(distance(plan.totalDistanceM))\(price)")
        for pending in plan.pending {
            let failing = pending.selected.rides.first(where: \.cancelled)
            let cancelled = failingRideNote(pending.selected)
            let segment = plan.segments.indices.contains(pending.segment - 1) ? plan.segments[pending.segment - 1] : nil
            let selected = pendingLeg(pending.selected, askedDay: day)
            let latest: LegDocument
            switch pending.proposal {
            case .ride(let leg): latest = leg
            case .nothingCatchable(let answer):
                // Nothing to accept: the answer is that no ride can be caught.
                lines.append("  pending on segment \(pending.segment): selected \(selected)\(cancelled)"
                             + " → \(noCatchableRideNaming(answer, selected: pending.selected, askedDay: day))"
                             // Walking is a mode change the user makes, not a ride to accept (trial 51).
                             + " (" + (answer.walkArrival == nil ? "" : "umctl plan mode \(plan.id) \(pending.segment) walk | ")
                             + "umctl plan dismiss \(plan.id) \(pending.segment))")
                continue
            }
            lines.append("  pending on segment \(pending.segment): selected \(selected)\(cancelled)"
                         // A ride proposed ("latest" read as the latest departure, trial 52); a walk
                         // or drive is only retimed.
                         + " → \(latest.rides.isEmpty && pending.selected.rides.isEmpty ? "retimed" : "proposed") \(pendingLeg(latest, askedDay: day))"
                         + " (umctl plan accept \(plan.id) \(pending.segment) | umctl plan dismiss \(plan.id) \(pending.segment))")
            // A ride whose trip skips its stop is named with the stop it skips (`proposalNaming`).
            let why = failing?.skippedStop != nil ? "" : !cancelled.isEmpty ? "the cancelled " : segment?.missedConnection == true
                ? "the \(segment?.missedAs ?? "missed") " : ""
            let missedAtAChange = segment.flatMap { MissedConnection.missedChange($0)?.ride }
            if let proposal = proposalNaming(pending, why: why, missed: missedAtAChange, askedDay: day) {
                lines.append("          \(proposal)")
            }
        }
        for removed in plan.removedPins ?? [] {
            lines.append("  pin removed by this edit: \(removed.from) → \(removed.to) leaving \(dayClock(removed.departure))")
        }
        return lines.joined(separator: "\n")
    }

    /// Whether an answer's mode note ("segment 2 by transit: …") says what segment 2's own
    /// `mode_note`, shown under it, says.
    static func repeatsASegmentsNote(_ note: String, _ segments: [SegmentDocument]) -> Bool {
        segments.indices.contains { index in
            segments[index].modeNote.map { note == "segment \(index + 1) \($0)" } ?? false
        }
    }

    /// A walk, drive or ride on the traveller's own power whose span between its departure and
    /// arrival holds more than moving: its own minutes and the minutes waiting after it, as
    /// shown times give them (so the two add up to the span); nil for a transit leg (its waits
    /// are its rides' times) and for a leg with no wait to show.
    static func movingAndWaiting(_ leg: LegDocument) -> (moving: String, wait: String)? {
        guard leg.rides.isEmpty, let start = WireTime.date(from: leg.departure ?? ""),
              let end = WireTime.date(from: leg.arrival ?? "") else { return nil }
        let from = start.timeIntervalSince1970, to = end.timeIntervalSince1970, moved = from + leg.durationS
        guard ShownTime.minutes(from: moved, to: to) > 0 else { return nil }
        return (ShownTime.text(from: from, to: moved), ShownTime.text(from: moved, to: to))
    }

    /// "3.50 EUR"
    static func money(_ price: PriceDocument) -> String {
        FixedDecimals.text(price.amount, decimals: 2) + " " + price.currency
    }

    /// A transit leg's fare or a car leg's cost ("fare 3.50 EUR", "price unknown (…)", "cost ≈ 2.40 EUR",
    /// "fare: covered by the ticket bought on segment 2 at 08:00"); nil for a walk.
    static func legPrice(_ leg: LegDocument, mode: WireMode) -> String? {
        guard mode == .transit || mode == .car else { return nil }
        if mode == .transit, let price = leg.price, let note = leg.priceNote {
            // A ticket bought on an earlier segment covers this one (and, if it costs more, one bought here).
            return price.amount == 0 ? "fare: \(note)" : "fare \(money(price)), \(note)"
        }
        if let price = leg.price { return mode == .car ? "cost ≈ \(money(price))" : "fare \(money(price))" }
        return mode == .car ? nil : leg.priceNote  // driving is priced only when a car cost is set
    }

    /// The compare table's price cell: "3.50 EUR", "≈ 2.40 EUR" for an estimate, "unknown", or "-" for a walk.
    static func priceCell(_ option: CompareOption) -> String {
        if let price = option.price { return (option.priceEstimate ? "≈ " : "") + money(price) }
        return option.mode == .transit ? "unknown" : "-"
    }

    /// "tram 3 at 10:34 instead of the cancelled 10:26": a proposed ride named by its line and
    /// departure; the user's line is named too when the proposal rides another one, and each
    /// further ride of the proposal after it ("…; then bus 2 at 08:12": session 58, a proposal of
    /// two rides was named by its first alone). Nil when the proposal rides nothing (a walk or drive).
    /// The user's ride named is the one that fails: the cancelled one, else `missed` (the ride a
    /// broken change misses, `MissedConnection.missedChange`), else the first (trial 58 F6: "instead
    /// of the cancelled bus 19" when bus 6, the second ride, was the one cancelled); any but the
    /// first is named with its line.
    static func proposalNaming(_ pending: PendingDocument, why: String, missed: RideDocument? = nil, askedDay: String?) -> String? {
        guard case .ride(let latest) = pending.proposal, let ride = latest.rides.first else { return nil }
        let proposed = "\(ride.vehicle) \(ride.line) at \(DayMark.clock(ride.departure, askedDay: askedDay))"
        let then = latest.rides.dropFirst().map { "; then \($0.vehicle) \($0.line) at \(DayMark.clock($0.departure, askedDay: askedDay))" }
            .joined()
        guard let first = pending.selected.rides.first else {
            return "\(proposed) instead of \(why)\(DayMark.clock(pending.selected.departure, askedDay: askedDay))\(then)"
        }
        let chosen = pending.selected.rides.first(where: \.cancelled) ?? missed ?? first
        let skipped = chosen.cancelled ? chosen.skippedStop.map { ", which does not stop at \($0)" } ?? "" : ""
        let sameLine = pending.selected.rides.map(\.line) == latest.rides.map(\.line) && chosen == first && skipped.isEmpty
        let line = sameLine ? "" : "\(chosen.vehicle) \(chosen.line) at "
        return "\(proposed) instead of \(why)\(line)\(DayMark.clock(chosen.departure, askedDay: askedDay))\(skipped)\(then)"
    }

    /// "no later tram 3 today; the last left 23:12" (the cancelled one: "the last was the cancelled
    /// 23:12"), or in an arrive-by plan "no earlier ride arrives by 08:05": the answer when no
    /// ride can be caught, naming the user's line and the last departure known of it.
    static func noCatchableRideNaming(_ answer: NoCatchableRideDocument, selected: LegDocument, askedDay: String?) -> String {
        if answer.kind == "no_earlier_ride" {
            return "no earlier ride arrives by \(DayMark.clock(answer.time, askedDay: askedDay))"
        }
        let ride = selected.rides.first
        let line = ride.map { "\($0.vehicle) \($0.line)" } ?? "ride"
        let last = DayMark.clock(ride?.departure ?? selected.departure, askedDay: askedDay)
        let cancelled = selected.rides.contains(where: \.cancelled)
        // Walking is what the traveller can still do, when it gets there that day (trial 50).
        let walking = answer.walkArrival.map { "; walking gets you there at \(DayMark.clock($0, askedDay: askedDay))" } ?? ""
        return "no later \(line) today; the last " + (cancelled ? "was the cancelled \(last)" : "left \(last)") + walking
    }

    /// "bus 6 leaves 08:20, arrives 08:50 (30 min)", "leaves 08:57, arrives 09:20 (23 min)": one
    /// side of a pending update. A ride's time is when it leaves its stop, as a pin's is ("pinned to
    /// leave 08:20", what `plan pin` reads): the leg's departure is the walk to the stop, which read
    /// "proposed leaves 08:19 … bus 6 at 08:20" (trial 55), or for a ride missed on foot a walk
    /// timed back before the traveller can be there (trial 50: "selected leaves 07:02" in a plan
    /// leaving at 08:00). A walk or drive: its own times.
    /// What fails in a pending update's selected leg, after `pendingLeg` names its first ride:
    /// " (cancelled)" or " (does not stop at X)" for that ride, the failing ride named when it is
    /// a later one (trial 60 F10: "selected bus 9 leaves 09:15 … (cancelled)" when bus 6, the
    /// second ride, was); "" when every ride runs.
    static func failingRideNote(_ selected: LegDocument) -> String {
        guard let index = selected.rides.firstIndex(where: \.cancelled) else { return "" }
        let ride = selected.rides[index]
        let named = index == 0 ? "" : "\(ride.vehicle) \(ride.line) "
        return " (" + named + (ride.skippedStop.map { "does not stop at \($0)" } ?? "cancelled") + ")"
    }

    static func pendingLeg(_ leg: LegDocument, askedDay: String?) -> String {
        guard let ride = leg.rides.first else {
            return "leaves \(DayMark.clock(leg.departure, askedDay: askedDay)), arrives \(DayMark.clock(leg.arrival, askedDay: askedDay))"
                + " (\(duration(leg.durationS, from: leg.departure, to: leg.arrival)))"
        }
        return "\(ride.vehicle) \(ride.line) leaves \(DayMark.clock(ride.departure, askedDay: askedDay)), "
            + "arrives \(DayMark.clock(leg.arrival, askedDay: askedDay)) (\(duration(nil, from: ride.departure, to: leg.arrival)))"
    }

    /// A transit leg step by step — walk, ride, walk, … — and the note when walking is no
    /// slower; nothing for a leg without walks (walk and car). Times not on `askedDay` carry their day.
    /// `missedLeaving`: the leg's first ride is missed on foot and the traveller leaves then: its
    /// walk is shown from then and the ride marked missed.
    static func legSteps(_ leg: LegDocument, askedDay: String? = nil, missedLeaving: String? = nil) -> [String] {
        let indent = "          "
        func dayClock(_ iso: String?) -> String { DayMark.clock(iso, askedDay: askedDay) }
        func walk(_ shownWalk: WalkDocument) -> String {
            var walk = shownWalk
            if let missedLeaving, walk.kind == "access" { walk.start = missedLeaving }
            // The walk from a ride missed on foot has no time of its own: the traveller gets to its
            // stop by the proposal, if at all (trial 51: it showed the missed ride's times, before they
            // can be there). No time is invented for it, as none is for a node after a missed ride.
            if missedLeaving != nil, walk.kind == "egress" {
                return "\(indent)--:--  walk \(duration(walk.durationS)) \(walk.from) → \(walk.to)"
                    + (walk.distanceM > 0 ? " (\(distance(walk.distanceM)))" : "")
            }
            let what = walk.kind == "transfer" && walk.distanceM == 0 ? "change" : "walk"
            // A change at one stop reads "change at Kalevankangas", not "Kalevankangas → Kalevankangas".
            let way = walk.from == walk.to ? "at \(walk.from)" : "\(walk.from) → \(walk.to)"
            // Beside its start time, a walk's duration is the shown difference to its end, as
            // every leg's (`ShownTime`): one rule, so a 116-s walk never reads shorter than a 103-s one.
            let shown = WireTime.date(from: walk.start).map {
                ShownTime.text(from: $0.timeIntervalSince1970, to: $0.timeIntervalSince1970 + walk.durationS)
            } ?? duration(walk.durationS)
            // A change at one stop has no way to time: its minimum ("1 min") read as the time to
            // the next ride, which the ride's own line shows (trial 50: "change 1 min" at 09:35
            // before a bus at 09:40).
            return "\(indent)\(dayClock(walk.start))  \(what)\(what == "change" ? "" : " " + shown) \(way)"
                + (walk.distanceM > 0 ? " (\(distance(walk.distanceM)))" : "")
        }
        // An access or egress "walk" of nothing (the segment already ends at the stop) is noise:
        // the street engine answers 0 m in a second, which would read "walk 1 min".
        let ends = leg.walks.filter { $0.kind != "transfer" && ($0.distanceM.rounded() > 0 || $0.durationS >= 30) }
        var steps: [String] = []
        var transfers = leg.walks.filter { $0.kind == "transfer" }[...]
        steps += ends.filter { $0.kind == "access" }.map(walk)
        for (index, ride) in leg.rides.enumerated() {
            let headsign = ride.headsign.map { " towards \($0)" } ?? ""
            steps.append("\(indent)\(LiveTimes.departure(ride, askedDay: askedDay))  \(ride.vehicle) \(ride.line)\(headsign) \(ride.from)"
                         + " → \(LiveTimes.arrival(ride, askedDay: askedDay)) \(ride.to)\(headwayNote(ride))\(LiveTimes.cancelledMark(ride))"
                         + (index == 0 && missedLeaving != nil ? " (missed)" : ""))
            steps += LiveTimes.alertLines(ride, indent: indent + "  ", askedDay: askedDay)
            if index < leg.rides.count - 1, let change = transfers.popFirst() { steps.append(walk(change)) }
        }
        steps += transfers.map(walk)
        steps += ends.filter { $0.kind == "egress" }.map(walk)
        if leg.walkingIsNoSlower { steps.append("\(indent)note: walking the whole way is no slower than this journey") }
        return leg.walks.isEmpty && !leg.walkingIsNoSlower ? [] : steps
    }

    /// " (about every 10 min; times are estimates)" for a headway-based ride, else "".
    static func headwayNote(_ ride: RideDocument) -> String {
        ride.headwayS.map { " (\(aboutEvery($0)); times are estimates)" } ?? ""
    }

    /// "7", or "7 (about every 10 min)" for a headway-based ride.
    static func lineWithHeadway(_ ride: RideDocument) -> String {
        ride.line + (ride.headwayS.map { " (\(aboutEvery($0)))" } ?? "")
    }

    static func aboutEvery(_ headwaySeconds: Int) -> String {
        "about every \(duration(Double(max(headwaySeconds, 60))))"
    }

    /// The transit option's accessibility is noted when it is known, or when step-free trips
    /// were asked (`stepFreeAsked`); an unknown one is news only to who asked.
    static func compare(_ document: CompareDocument, stepFreeAsked: Bool = false) -> String {
        var rows: [[String]] = []
        for option in document.options {
            if let error = option.error {
                rows.append([option.mode.rawValue, "-", "-", "-", "-", "-", "-", error.message])  // the code is in --json
                continue
            }
            let lines = option.lines.isEmpty ? "" : "lines \(option.lines.joined(separator: ", "))"
            rows.append([option.mode.rawValue + (option.fastest ? " *" : ""),
                         duration(option.durationS, from: option.departure, to: option.arrival),
                         DayMark.clock(option.departure, askedDay: document.time),
                         DayMark.clock(option.arrival, askedDay: document.time), distance(option.distanceM),
                         option.mode == .transit ? option.transfers.map(String.init) ?? "-" : "-", priceCell(option), lines])
        }
        var notes = document.options.filter(\.walkingIsNoSlower).map {
            "\nnote: walking the whole way is no slower than \($0.mode)"
        }
        for option in document.options {
            for (line, headway) in zip(option.lines, option.headwaysS) {
                guard let headway else { continue }
                notes.append("\nnote: \(option.mode) line \(line) runs \(aboutEvery(headway)); its times are estimates")
            }
        }
        for option in document.options where option.error == nil && (option.mode == .transit || option.mode == .car) {
            if option.price == nil, option.mode == .transit, let note = option.priceNote { notes.append("\nnote: \(option.mode) \(note)") }
            if option.price != nil, option.priceEstimate, let note = option.priceNote { notes.append("\nnote: \(option.mode) price is an \(note)") }
        }
        for option in document.options where option.mode == .transit && (stepFreeAsked || option.accessibility != "unknown") {
            if let access = WheelchairOption.label(option.accessibility) { notes.append("\nnote: transit \(access)") }
        }
        for option in document.options {
            notes += LiveTimes.notes(option.rides, label: option.mode.rawValue, askedDay: document.time).map { "\n" + $0 }
        }
        let otherDay = document.options.first { $0.mode == .transit }.flatMap { DayMark.otherDayTransitNote($0, document) }
        return "\(document.from.name) → \(document.to.name)  (times in \(document.timeZone); * fastest)\n"
            + matchNotes([document.from, document.to] + (document.near.map { [$0] } ?? [])).map { $0 + "\n" }.joined()
            + (otherDay.map { "note: \($0)\n" } ?? "")
            + table(["mode", "duration", "depart", "arrive", "distance", "transfers", "price", ""], rows) + notes.joined()
    }

    /// "realtime:  tampere https://…/trips.pb live; fetched 08:00:05, changed 08:00:05; 812 trip updates, 3 cancelled, 2 alerts; refused unknown_trip 4"
    static func realtimeFeed(_ feed: RealtimeFeedDocument, region: String) -> String {
        var parts = ["\(feed.state) (every \(feed.intervalS) s)"]
        if let fetched = feed.lastFetch { parts.append("fetched \(DayMark.clock(fetched, askedDay: nil))") }
        if let changed = feed.lastChange { parts.append("changed \(DayMark.clock(changed, askedDay: nil))") }
        // Dated against the fetch: a feed stamped days off says so ("+3653d"), not just a clock time.
        if let feedTime = feed.feedTime { parts.append("feed time \(DayMark.clock(feedTime, askedDay: feed.lastFetch))") }
        if feed.state == "live" {
            parts.append("\(feed.tripUpdatesApplied) trip updates, \(feed.tripsCancelled) cancelled, \(feed.alertsApplied) alerts")
        }
        if !feed.refused.isEmpty {
            parts.append("refused " + feed.refused.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joinedPlainly(separator: ", "))
        }
        if let error = feed.error {
            parts.append(feed.consecutiveFailures > 0 ? "error (\(feed.consecutiveFailures)×): \(error)" : "error: \(error)")
        }
        let tie = feed.gtfsFeed.map { " (GTFS feed \($0))" } ?? ""
        return "realtime:  \(region) \(feed.source)\(tie) " + parts.joinedPlainly(separator: "; ")
    }

    static func status(_ status: StatusDocument) -> String {
        var lines = [
            "usefulmapd \(status.version) (protocol \(status.protocolVersion)), up \(duration(status.uptimeS))",
            "database:  \(status.databasePath)",
            "socket:    \(status.socketPath)",
        ]
        if status.regions.isEmpty {
            lines.append("regions:   none imported (umctl region import NAME --osm FILE [--gtfs FILE])")
        } else {
            lines.append("regions:   " + status.regions.map {
                "\($0.name) (\([$0.timeZone, $0.hasTransit ? "transit" : nil].compactMap { $0 }.joinedPlainly(separator: ", ")))"
            }.joinedPlainly(separator: ", "))
            for region in status.regions {
                for feed in region.transitFeeds ?? [] {
                    lines.append("transit:   \(region.name) \(feed.feed) \(feed.firstDate) – \(feed.lastDate)"
                                 + (feed.serviceDay.map { "; on \($0): \(DayMark.serviceHours(feed))" } ?? "")
                                 + (DayMark.daysLeft(feed).map { "; \($0)" } ?? "")
                                 + (feed.lastChange.map { "; changed \(machineClock($0))" } ?? "")
                                 + (feed.lastCheck.map { ", checked \(machineClock($0))" } ?? ""))
                }
                lines += (region.realtimeFeeds ?? []).map { realtimeFeed($0, region: region.name) }
            }
        }
        let counters = status.counters
        let queries = counters.routingQueries
        lines.append("requests:  \(counters.requests)")
        lines.append("routing queries: \(queries.total) (walk \(queries.walk), transit \(queries.transit), car \(queries.car), bike \(queries.bike))")
        lines.append("plans recomputed: \(counters.plansRecomputed)")
        if let retries = counters.noRouteRetries { lines.append("no_route retries from nearby roads: \(retries)") }
        if let known = counters.noRouteKnownAtImport, known > 0 {
            lines.append("no_route known at import: \(known) (ends on street networks no way joins)")
        }
        if let built = counters.realtimeOverlaysBuilt, built > 0 { lines.append("realtime overlays built: \(built)") }
        if let dropped = counters.logLinesDropped, dropped > 0 { lines.append("log lines dropped: \(dropped) (stderr could not be written)") }
        if let skipped = counters.historyNotRecorded, skipped > 0 {
            lines.append("history not recorded: \(skipped) (searches and comparisons answered on a full disk)")
        }
        lines.append("connections: \(counters.connections), watchers: \(counters.watchers)")
        if let location = status.location { lines.append(contentsOf: Self.location(location)) }
        if let queue = status.refreshQueue { lines.append(refreshQueue(queue)) }
        return lines.joinedPlainly(separator: "\n")
    }

    static func places(_ items: [(name: String, kind: String, lat: Double, lon: Double, distanceM: Double?, region: String?, note: String?)])
        -> String {
        if items.isEmpty { return "(none)" }
        return table(["name", "kind", "lat,lon", "distance", "region", "note"], items.map {
            [$0.name, $0.kind, coordinate($0.lat, $0.lon), $0.distanceM.map { distance($0) } ?? "", $0.region ?? "", $0.note ?? ""]
        })
    }
}

extension PlanDocument {
    /// Every pinned segment, 1-based (`pinned_segments`; the single `pinned_segment` from a daemon
    /// that sends only that).
    var pinnedNumbers: [Int] { pinnedSegments ?? pinnedSegment.map { [$0] } ?? [] }

    /// The time segment `number` is pinned to leave (`pins`; the leg's own departure from a
    /// daemon that does not send pin times).
    func pinnedDeparture(ofSegment number: Int) -> String? {
        pins?.first { $0.segment == number }?.departure
            ?? (segments.indices.contains(number - 1) ? segments[number - 1].leg?.departure : nil)
    }
}
