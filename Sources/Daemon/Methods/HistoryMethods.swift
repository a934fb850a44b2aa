import Foundation
import Planner
import Store
import WireProtocol

/// `history.searches`, `history.routes` (with filters), `history.rerun`, `history.delete`,
/// `history.clear`. Times are in the machine's zone, one zone for the whole table (entries come
/// from every region). Entry IDs are `s<N>` (searches) and `r<N>` (routes).
struct HistoryMethods: Sendable {
    let history: HistoryService
    let comparer: TripComparer
    /// A rerun of an entry that `plan.new` made makes a new plan.
    let plans: PlanService
    let input: WireInput

    func register(in table: inout MethodTable) {
        table.register(Endpoints.historySearches) { params, _ in
            HistoryDocument(entries: try await history.searches(try filter(params)).map { record in
                let entry = record.entry
                return HistoryEntryDocument(id: "s\(record.number)", label: entry.query, text: entry.query, region: entry.region,
                                            place: entry.place.map { WireDocuments.place($0) },
                                            at: WireTime.string(from: entry.date, timeZone: TimeZone.current))
            })
        }
        table.register(Endpoints.historyRoutes) { params, _ in
            HistoryDocument(entries: try await history.routes(try filter(params)).map(document))
        }
        table.register(Endpoints.historyRerun) { params, _ in
            let entry = try await history.route(try Self.entryID(params.id))
            let preference = try timePreference(params.at, of: entry)
            if let plan = entry.plan {
                return .plan(WireDocuments.plan(try await plans.rerun(entry, as: plan, timePreference: preference),
                                                regions: comparer.regions, now: input.clock.now()))
            }
            let trip = TripComparer.Trip(from: PlanNode(place: entry.from), to: PlanNode(place: entry.to),
                                         fromText: entry.fromText ?? entry.from.name, toText: entry.toText ?? entry.to.name)
            // As it was asked; an entry recorded before its options were kept reruns with the defaults.
            let asked = entry.compare ?? CompareRequest(pace: .normal, access: .any, modes: Planner.comparedModes)
            return .compare(try await comparer.compare(trip, timePreference: preference, pace: asked.pace, access: asked.access,
                                                       modes: asked.modes.isEmpty ? Planner.comparedModes : asked.modes).document)
        }
        table.register(Endpoints.historyDelete) { params, _ in
            try await history.delete(try Self.entryID(params.id))
            return HistoryDeletedDocument(deleted: params.id)
        }
        table.register(Endpoints.historyClear) { params, _ in
            try await history.clear(params.which)
            return ClearedDocument(cleared: params.which)
        }
    }

    private func document(_ record: HistoryRecord<RouteHistoryEntry>) -> HistoryEntryDocument {
        let entry = record.entry
        let zone = comparer.regions.timeZone(from: entry.from, to: entry.to)
        return HistoryEntryDocument(
            id: "r\(record.number)", label: entry.places.map(\.name).joined(separator: " → "), fromText: entry.fromText, toText: entry.toText,
            region: entry.region, from: WireDocuments.place(entry.from), to: WireDocuments.place(entry.to),
            at: WireTime.string(from: entry.date, timeZone: TimeZone.current), modes: entry.modes.map(WireMode.init),
            requestedTime: entry.requestedTime.map { WireDocuments.timePreference($0, timeZone: zone) },
            answers: entry.answers?.map { HistoryAnswerDocument(mode: WireMode($0.mode), durationS: $0.durationS) },
            fastest: entry.fastest.map(WireMode.init),
            plan: entry.plan.map { plan in
                HistoryPlanDocument(title: plan.title, titleGiven: plan.titleGiven, preset: WirePreset(plan.preset),
                                    pace: WirePace(plan.pace), via: plan.via.map { WireDocuments.place($0) },
                                    access: WireDocuments.accessLevel(plan.access))
            },
            compare: entry.compare.map { asked in
                HistoryCompareDocument(pace: WirePace(asked.pace), access: WireDocuments.accessLevel(asked.access),
                                       modes: asked.modes.map(WireMode.init))
            })
    }

    /// `at` in the zone of the entry's places, else the time the entry was asked for.
    private func timePreference(_ at: String?, of entry: RouteHistoryEntry) throws -> TimePreference {
        guard let at else { return entry.requestedTime ?? .leaveNow }
        return .departAt(try input.time(at, param: "at", timeZone: comparer.regions.timeZone(from: entry.from, to: entry.to)))
    }

    /// `s12` → a search, `r7` → a route.
    static func entryID(_ id: String) throws -> HistoryService.EntryID {
        guard let list = id.first, list == "s" || list == "r", let number = Int64(id.dropFirst()) else {
            throw DaemonError.invalidParams("id \"\(id)\" is not a history entry: use s<N> (a search) or r<N> (a route)")
        }
        return HistoryService.EntryID(list: list == "s" ? .searches : .routes, number: number, description: id)
    }

    private func filter(_ params: Params.HistoryList) throws -> HistoryFilter {
        let limit = try HistoryService.checkedLimit(params.limit)
        return HistoryFilter(text: params.text, place: params.place, mode: params.mode.map(TravelMode.init),
                             since: try params.since.map { try day($0, param: "since", endOfDay: false) },
                             until: try params.until.map { try day($0, param: "until", endOfDay: true) }, limit: limit)
    }

    /// `today`, `yesterday` (on the daemon's clock) or `YYYY-MM-DD`: that day's start, for
    /// `until` its end; or a date and time (`2022-01-12T08:00`, `2022-01-12 08:00`, with or
    /// without an offset), in the machine's zone.
    private func day(_ text: String, param: String, endOfDay: Bool) throws -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        let start: Date
        if word == "today" || word == "yesterday" {
            let today = calendar.startOfDay(for: input.clock.now())
            start = word == "today" ? today : calendar.date(byAdding: .day, value: -1, to: today) ?? today
        } else {
            let isDate = text.split(separator: "-").count == 3 && !text.contains("T") && !text.contains(" ")
            do {
                start = try input.time(isDate ? text + "T00:00" : text, param: param, timeZone: TimeZone.current)
            } catch {
                throw DaemonError.invalidParams(
                    "\(param) \"\(text)\" is not a date: use today, yesterday, YYYY-MM-DD or a date and time such as 2022-01-12T08:15")
            }
            guard isDate else { return start }
        }
        guard endOfDay else { return start }
        return calendar.date(byAdding: .day, value: 1, to: start) ?? start
    }
}
