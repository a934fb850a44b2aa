import Planner

extension Timetable {
    /// The step-free view of this timetable, which the same RAPTOR engine then searches
    /// (docs/transit.md "Step-free trips"):
    /// - patterns keep only the trips whose `wheelchair_accessible` allows them;
    /// - a stop whose `wheelchair_boarding` says no (2) leaves every pattern (one can neither
    ///   board nor alight there), and the footpaths to and from it go;
    /// - `strict` drops trips and stops whose value is unknown (0 or missing) too, and the
    ///   footpaths between stops that are not platforms of one station (a walk along streets
    ///   the feed says nothing of); otherwise they stay, and the legs using them are marked
    ///   unknown.
    ///
    /// Stops keep their indexes (a removed stop is only left without patterns or footpaths), so
    /// fares, the stop grid and journeys read the same stop arrays. Trips are renumbered; a
    /// subset of a pattern's trips and stops never overtakes, so patterns stay valid.
    func stepFreeView(strict: Bool) -> Timetable {
        let allowed = { Self.stepFree($0, strict: strict) }
        let stopAllowed = stops.map { allowed($0.wheelchairBoarding) }
        var view = Timetable(timeZoneID: timeZoneID)
        view.stops = stops
        view.routes = routes
        view.services = services
        view.feeds = feeds
        view.fares = fares
        view.changeSeconds = changeSeconds
        for pattern in patterns {
            let start = Int(pattern.stopsStart), n = Int(pattern.stopCount)
            let kept = (0..<n).filter { stopAllowed[Int(patternStops[start + $0])] }
            let trips = (Int(pattern.firstTrip)..<Int(pattern.firstTrip + pattern.tripCount)).filter { allowed(tripWheelchair[$0]) }
            guard kept.count >= 2, !trips.isEmpty else { continue }
            var derived = Pattern(stopsStart: Int32(view.patternStops.count), stopCount: Int32(kept.count),
                                  firstTrip: Int32(view.tripIDs.count), tripCount: Int32(trips.count),
                                  timesStart: Int32(view.arrivals.count), minTime: .max, maxTime: .min)
            for i in kept {
                view.patternStops.append(patternStops[start + i])
                view.patternFlags.append(patternFlags[start + i])
                view.patternSequences.append(patternSequences[start + i])
            }
            for trip in trips {
                view.tripIDs.append(tripIDs[trip])
                view.tripRoutes.append(tripRoutes[trip])
                view.tripHeadsigns.append(tripHeadsigns[trip])
                view.tripServices.append(tripServices[trip])
                view.tripHeadways.append(tripHeadways[trip])
                view.tripDirections.append(tripDirections[trip])
                view.tripWheelchair.append(tripWheelchair[trip])
                let times = Int(pattern.timesStart) + (trip - Int(pattern.firstTrip)) * n
                for i in kept {
                    view.arrivals.append(arrivals[times + i])
                    view.departures.append(departures[times + i])
                }
                derived.minTime = min(derived.minTime, departures[times + kept[0]])
                derived.maxTime = max(derived.maxTime, arrivals[times + kept[kept.count - 1]])
            }
            view.patterns.append(derived)
        }
        view.footStart = [0]
        for s in stops.indices {
            if stopAllowed[s] {
                for e in Int(footStart[s])..<Int(footStart[s + 1]) where stopAllowed[Int(footTargets[e])]
                    && (!strict || AccessibilityValue.changeIsStepFree(from: Int32(s), to: footTargets[e], in: stops)) {
                    view.footTargets.append(footTargets[e])
                    view.footWalkSeconds.append(footWalkSeconds[e])
                    view.footMinimumSeconds.append(footMinimumSeconds[e])
                    view.footWalkMetres.append(footWalkMetres[e])
                }
            }
            view.footStart.append(Int32(view.footTargets.count))
        }
        view.buildIndexes()
        return view
    }
    /// Whether a `wheelchair_accessible` or `wheelchair_boarding` value lets the step-free view keep it.
    static func stepFree(_ value: UInt8, strict: Bool) -> Bool {
        value == AccessibilityValue.accessible || (!strict && value == AccessibilityValue.unknown)
    }

    /// Why the step-free view of this timetable has no trip to ride, naming the feed's file and
    /// column that says so: trial 61 blamed the trips ("no trip in this feed is marked accessible")
    /// where 477 Tampere tram trips are, and it is stops.txt that marks no stop.
    func whyNoStepFreeTrip(strict: Bool) -> String {
        let (kept, marked) = strict ? ("marked accessible", "marked step-free") : ("left accessible", "left step-free")
        let need = strict ? "strict step-free transit" : "step-free transit"
        if !tripWheelchair.contains(where: { Self.stepFree($0, strict: strict) }) {
            return "no trip in this feed is \(kept) (trips.txt wheelchair_accessible), so \(need) has none to ride"
        }
        if !stops.contains(where: { Self.stepFree($0.wheelchairBoarding, strict: strict) }) {
            return "no stop in this feed is \(marked) (stops.txt wheelchair_boarding), so \(need) has none to board"
        }
        return "no trip \(kept) (trips.txt wheelchair_accessible) calls at two stops \(marked) (stops.txt wheelchair_boarding), "
            + "so \(need) has none to ride"
    }
}
