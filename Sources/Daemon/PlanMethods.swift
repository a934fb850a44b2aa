import Foundation
import Planner
import Store
import WireProtocol

extension DaemonServices {
    /// `compare`, `plan.new`, `plan.list`, `plan.show`, `plan.delete`, `plan.link`.
    func planHandlers() -> [WireMethod: RequestDispatcher.Handler] {
        [
            .compare: { [self] context in
                try JSONValue(encoding: try await comparison(context.params(Params.Compare.self)).0)
            },
            .planNew: { [self] context in
                let params = try context.params(Params.PlanNew.self)
                let preset = try params.mode.map { text -> PlanPreset in
                    guard let mode = TravelMode(rawValue: text) else {
                        throw DaemonError.invalidParams("mode \"\(text)\" must be walk, transit or car")
                    }
                    return PlanPreset(rawValue: mode.rawValue) ?? .fastest
                } ?? .fastest
                if let title = params.title, title.trimmingCharacters(in: .whitespaces).isEmpty {
                    throw DaemonError.invalidParams("title must not be empty")
                }
                _ = try regions.requireRegions()
                let from = try resolver.resolve(params.from)
                let to = try resolver.resolve(params.to, near: from.place.coordinate)
                let zone = regions.timeZone(for: from.place.coordinate)
                let preference = try timePreference(at: params.at, arriveBy: params.arriveBy, timeZone: zone)
                var plan = try await planner.buildPlan(from: from, to: to, preset: preset, timePreference: preference,
                                                       pace: try pace(params.pace), currentLocation: location.current?.coordinate)
                var failures: [Int: RoutingError] = [:]
                if plan.legs.contains(where: { $0 == nil }) {
                    // The builder does not say why a leg is missing; asking again for just those legs does.
                    let computed = try await planner.computeLegsReporting(plan, currentLocation: location.current?.coordinate)
                    plan = computed.plan
                    failures = Dictionary(computed.failures.map { ($0.segment, $0.error) }, uniquingKeysWith: { first, _ in first })
                }
                let title = params.title ?? "\(from.place.name) → \(to.place.name)"
                let id = try store.createPlan(plan, title: title)
                await plans.created(id: id, failures: failures)
                counters.countPlanRecomputed()
                try store.recordRoute(RouteHistoryEntry(from: from.place, to: to.place, modes: plan.modes, date: clock.now()))
                events.publish("plan_recomputed", ["plan_id": .number(Double(id)), "generation": .number(1)])
                return try planDocument(plan, id: id, title: title, generation: 1, failures: failures)
            },
            .planList: { [self] _ in
                .object(["plans": .array(try store.listPlans().map { summary in
                    var document = try JSONValue(encoding: PlanSummaryDocument(
                        id: summary.id, title: summary.title, from: summary.fromName, to: summary.toName, segments: 0,
                        updatedAt: WireTime.string(from: summary.updatedAt, timeZone: regions.timeZone(for: nil))))
                    if case .object(var fields) = document {
                        fields.removeValue(forKey: "segments")
                        fields["total_duration_s"] = summary.totalTravelTime.map(JSONValue.number) ?? .null
                        document = .object(fields)
                    }
                    return document
                })])
            },
            .planShow: { [self] context in
                let params = try context.params(Params.PlanShow.self)
                let outcome = try await plans.show(id: params.id)
                let geometry = params.geometry == true
                    ? try mapData.geometry(of: outcome.plan, toleranceM: params.toleranceM, now: clock.now()) : nil
                return try planDocument(outcome, geometry: geometry)
            },
            .planDelete: { [self] context in
                let id = try context.params(Params.PlanID.self).id
                do {
                    try store.deletePlan(id: id)
                } catch StoreError.notFound {
                    throw DaemonError.notFound("plan \(id) does not exist")
                }
                await plans.forget(id: id)
                events.publish("plan_deleted", ["plan_id": .number(Double(id))])
                return .object(["deleted": .number(Double(id))])
            },
            .planLink: { [self] context in
                let params = try context.params(Params.PlanSegment.self)
                let plan = try await plans.show(id: params.id).plan
                let segment = try segmentIndex(params.segment, in: plan)
                let zone = regions.timeZone(for: plan.nodes[0].place.coordinate)
                let link = try GoogleMapsLink.build(plan: plan, segment: segment, timeZone: zone)
                return .object(["url": .string(link.url), "form": .string(link.form.rawValue),
                                "fallback_reason": link.fallbackReason.map(JSONValue.string) ?? .null,
                                "segment": .number(Double(params.segment)), "mode": .string(plan.modes[segment].rawValue)])
            },
        ]
    }

    // MARK: - Helpers

    /// Runs a comparison and records it in the route history (`compare`, `compare.map`).
    func comparison(_ params: Params.Compare) async throws -> (CompareDocument, [ModeComparison], TimeZone) {
        _ = try regions.requireRegions()
        let from = try resolver.resolve(params.from)
        let to = try resolver.resolve(params.to, near: from.place.coordinate)
        let zone = regions.timeZone(for: from.place.coordinate)
        let preference = try timePreference(at: params.at, arriveBy: params.arriveBy, timeZone: zone)
        let comparisons = try await planner.compare(from: from, to: to, timePreference: preference,
                                                    pace: try pace(params.pace), currentLocation: location.current?.coordinate)
        let now = clock.now()
        let fastest = comparisons.first(where: \.isFastest)?.mode
        try store.recordRoute(RouteHistoryEntry(from: from.place, to: to.place, modes: fastest.map { [$0] } ?? [], date: now))
        let document = CompareDocument(
            from: WireDocuments.place(from.place), to: WireDocuments.place(to.place),
            options: comparisons.map { WireDocuments.compareOption($0, timeZone: zone, now: now) },
            timeZone: zone.identifier)
        return (document, comparisons, zone)
    }

    /// - parameter geometry: the lines to add (`plan.show` with `geometry`).
    func planDocument(_ plan: RoutePlan, id: Int64, title: String, generation: Int64,
                      failures: [Int: RoutingError] = [:], geometry: PlanGeometry? = nil) throws -> JSONValue {
        let zone = regions.timeZone(for: plan.nodes.first?.place.coordinate)
        var document = WireDocuments.plan(plan, id: id, title: title, generation: generation,
                                          timeZone: zone, now: clock.now(), failures: failures)
        if let geometry { WireDocuments.addGeometry(geometry, to: &document) }
        return try JSONValue(encoding: document)
    }

    func planDocument(_ outcome: PlanCoordinator.Outcome, geometry: PlanGeometry? = nil) throws -> JSONValue {
        try planDocument(outcome.plan, id: outcome.id, title: outcome.title, generation: outcome.generation,
                         failures: outcome.failures, geometry: geometry)
    }

    /// A 1-based segment number from the wire as a 0-based index, checked against the plan.
    func segmentIndex(_ number: Int, in plan: RoutePlan) throws -> Int {
        guard (1...plan.segmentCount).contains(number) else {
            throw DaemonError.invalidParams("segment \(number) does not exist: plan has segments 1 to \(plan.segmentCount)")
        }
        return number - 1
    }

    func nodeIndex(_ number: Int, in plan: RoutePlan) throws -> Int {
        guard (1...plan.nodes.count).contains(number) else {
            throw DaemonError.invalidParams("node \(number) does not exist: plan has nodes 1 to \(plan.nodes.count)")
        }
        return number - 1
    }
}
