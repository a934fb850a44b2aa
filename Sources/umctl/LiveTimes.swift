import WireProtocol

/// How a ride's live times read: "08:12 → 08:18 (+6)" when a realtime feed moved it,
/// "08:12 on time (live)" when it confirms the timetable, and "cancelled" when the trip is off.
enum LiveTimes {
    /// The ride's departure as the user should read it.
    static func departure(_ ride: RideDocument, askedDay: String?) -> String {
        clock(ride.departure, scheduled: ride.scheduledDeparture, delay: ride.delayS, ride: ride, askedDay: askedDay)
    }

    static func arrival(_ ride: RideDocument, askedDay: String?) -> String {
        clock(ride.arrival, scheduled: ride.scheduledArrival, delay: ride.arrivalDelayS, ride: ride, askedDay: askedDay)
    }

    /// "  cancelled" after a cancelled ride, "  does not stop at Keskustori B" after one whose
    /// running trip skips its stop (trial 58 F6: the tram ran, and was called cancelled), else "".
    static func cancelledMark(_ ride: RideDocument) -> String {
        guard ride.cancelled else { return "" }
        return ride.skippedStop.map { "  does not stop at \($0)" } ?? "  cancelled"
    }

    /// One line per alert touching the ride: "! Stop closed: roadworks (until 18:00)".
    static func alertLines(_ ride: RideDocument, indent: String, askedDay: String?) -> [String] {
        let more = (ride.alertsOmitted ?? 0) > 0 ? ["\(indent)! and \(ride.alertsOmitted ?? 0) more alerts"] : []
        return ride.alerts.map { alert in
            var text = "\(indent)! \(alert.header)"
            if let description = alert.description, !description.isEmpty, description != alert.header { text += ": \(description)" }
            switch (alert.activeFrom, alert.activeUntil) {
            case let (from?, until?): text += " (\(DayMark.clock(from, askedDay: askedDay)) – \(DayMark.clock(until, askedDay: askedDay)))"
            case let (nil, until?): text += " (until \(DayMark.clock(until, askedDay: askedDay)))"
            case let (from?, nil): text += " (from \(DayMark.clock(from, askedDay: askedDay)))"
            case (nil, nil): break
            }
            return text
        } + more
    }

    /// Notes for the rides a realtime feed knows something about: "note: transit line 3 from
    /// Keskustori leaves 08:12 → 08:18 (+6)", "… cancelled", and their alerts below.
    static func notes(_ rides: [RideDocument], label: String, askedDay: String?) -> [String] {
        rides.filter { $0.realtime || $0.cancelled || !$0.alerts.isEmpty }.map { ride in
            let head = ride.realtime || ride.cancelled
                ? "note: \(label) line \(ride.line) from \(ride.from) leaves \(departure(ride, askedDay: askedDay))\(cancelledMark(ride))"
                : "note: \(label) line \(ride.line) from \(ride.from):"
            return ([head] + alertLines(ride, indent: "  ", askedDay: askedDay)).joined(separator: "\n")
        }
    }

    /// "+6", "-1", "+1 h 15 min" or "on time" for a delay in seconds, rounded to whole minutes:
    /// bare minutes beside the clock times under an hour, from an hour on as every duration reads.
    static func delayText(_ seconds: Int) -> String {
        let minutes = Int((Double(seconds) / 60).rounded())
        guard minutes != 0 else { return "on time" }
        let amount = minutes.magnitude < 60 ? "\(minutes.magnitude)" : ShownTime.text(minutes: Int(minutes.magnitude))
        return (minutes > 0 ? "+" : "-") + amount
    }

    private static func clock(_ live: String, scheduled: String?, delay: Int?, ride: RideDocument, askedDay: String?) -> String {
        let estimate = ride.headwayS == nil ? "" : "~"
        guard ride.realtime, let scheduled, let delay else { return estimate + DayMark.clock(live, askedDay: askedDay) }
        let planned = DayMark.clock(scheduled, askedDay: askedDay)
        if Int((Double(delay) / 60).rounded()) == 0 { return "\(planned) on time (live)" }
        return "\(planned) → \(DayMark.clock(live, askedDay: askedDay)) (\(delayText(delay)))"
    }
}
