import Foundation
import Planner
import Store

/// New plans: `plan.new` from what was typed, and `history.rerun` of an entry `plan.new` made
/// (so a rerun makes the same kind of plan). Both end in `create`: built, stored with the route
/// history entry (one transaction, so a failure leaves neither), and announced.
extension PlanService {
    /// What to build: every place in order (the ends and the places between), what the user
    /// typed for each (nil where not known), and the options.
    struct NewPlan: Sendable {
        var nodes: [PlanNode]
        var texts: [String?]
        var preset: PlanPreset
        var timePreference: TimePreference
        var pace: WalkingPace
        /// The title the user gave; nil: generated from the places.
        var title: String?
        /// Step-free walks and transit (`--wheelchair`), stored with the plan.
        var access: AccessNeed = .any
    }

    /// What `plan.new` was asked: the places as typed (searched here) and the options.
    struct Order: Sendable {
        var from: String
        var to: String
        var via: [String]?
        var near: String?
        var region: String?
        var preset: PlanPreset
        /// `HH:MM` or a full time, read in the zone of the ends' region.
        var at: String?
        var arriveBy: String?
        var pace: WalkingPace
        var title: String?
        var access: AccessNeed
    }

    /// `plan.new`: its places resolved together in one region, its times read in that region's zone.
    func new(_ params: Order) async throws -> Outcome {
        let preset = params.preset
        if let title = params.title { _ = try Self.title(title) }
        let viaTexts = params.via ?? []
        let texts = [params.from] + viaTexts + [params.to]
        let resolved = try await resolver.resolveTogether(texts, near: params.near, region: params.region, regions: regions)
        let nodes = resolved.places.map(\.node)
        _ = try regions.planRegion(through: nodes.map(\.place))
        let from = nodes[0], to = nodes[nodes.count - 1]
        // Times are read, and shown, in the zone of the ends' region (`RegionRegistry.timeZone(of:)`).
        let region = try regions.tripRegion(from: from.place, to: to.place)
        let preference = try input.timePreference(at: params.at, arriveBy: params.arriveBy, timeZone: region.timeZone)
        // The ends first, then the places between (the order they enter the search history).
        let typed = zip([params.from, params.to] + viaTexts, [from, to] + nodes.dropFirst().dropLast())
            .compactMap { typedPlaces.typed($0, resolved: $1.place) }
        var outcome = try await create(NewPlan(nodes: nodes, texts: texts, preset: preset, timePreference: preference,
                                               pace: params.pace, title: params.title,
                                               access: params.access),
                                       region: region.name, searches: typedPlaces.entries(typed))
        outcome.matched = resolved.places + (resolved.near.map { [$0] } ?? [])
        return outcome
    }

    /// `history.rerun` of an entry that `plan.new` made: its places and options as recorded (the
    /// entry moves to the front with the new time).
    func rerun(_ entry: RouteHistoryEntry, as asked: PlanRequest, timePreference: TimePreference) async throws -> Outcome {
        _ = try regions.requireRegions()
        _ = try regions.planRegion(through: entry.places)
        let region = try regions.tripRegion(from: entry.from, to: entry.to)
        return try await create(NewPlan(nodes: entry.places.map { PlanNode(place: $0) },
                                        texts: [entry.fromText] + asked.viaTexts + [entry.toText],
                                        preset: asked.preset, timePreference: timePreference, pace: asked.pace,
                                        title: asked.titleGiven ? asked.title : nil, access: asked.access),
                                region: region.name, searches: [])
    }

    /// - parameter region: the region the plan is in (recorded in its history entry).
    /// - parameter searches: places typed as text for this plan, recorded with it.
    private func create(_ request: NewPlan, region: String, searches: [SearchHistoryEntry]) async throws -> Outcome {
        guard let first = request.nodes.first, let last = request.nodes.last else { throw PlannerError.tooFewNodes(0) }
        let built = try await planner.buildPlanReporting(through: request.nodes, preset: request.preset,
                                                         timePreference: request.timePreference, pace: request.pace,
                                                         access: request.access, currentLocation: location.current?.coordinate)
        let title = request.title ?? built.plan.generatedTitle
        let texts = request.texts + Array(repeating: nil, count: max(0, request.nodes.count - request.texts.count))
        let asked = PlanRequest(via: request.nodes.dropFirst().dropLast().map(\.place), viaTexts: Array(texts.dropFirst().dropLast()),
                                preset: request.preset, pace: request.pace, title: title, titleGiven: request.title != nil,
                                access: request.access)
        return try await plans.create(built.plan, title: title, recording: RouteHistoryEntry(
            from: first.place, to: last.place, modes: built.plan.modes, date: input.clock.now(),
            fromText: texts.first ?? nil, toText: texts.last ?? nil, region: region, requestedTime: request.timePreference,
            plan: asked), searches: searches, failures: built.failuresBySegment, queries: built.queryCount)
    }

    /// The one rule for a plan's title, given or changed.
    static func title(_ text: String) throws -> String {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw DaemonError.invalidParams("title must not be empty") }
        try NameRule.check(text, field: "title")
        return text
    }
}
