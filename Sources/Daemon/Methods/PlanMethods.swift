import Foundation
import MapRendering
import Planner
import Store
import WireProtocol

/// `compare` (with its picture), `plan.new`, `plan.list`, `plan.show`, `plan.delete`, `plan.link`.
struct PlanMethods: Sendable {
    /// Creates and deletes plans.
    let service: PlanService
    /// The plans, for `plan.list`, `plan.show` and `plan.link`.
    let plans: PlanRepository
    let resolver: PlaceResolver
    let regions: RegionRegistry
    let input: WireInput
    /// Geometry for `plan.show`, and `compare`'s picture.
    let mapData: RegionMapData
    let comparer: TripComparer
    let typedPlaces: TypedPlaceHistory

    func register(in table: inout MethodTable) {
        table.register(Endpoints.compare) { params, _ in
            let picture = try params.map.map(MapPictureRequest.init)  // checked before any work
            let modes = try input.comparedModes(params.modes)
            let (fromMatch, toMatch, near) = try await resolver.resolveTrip(params.from, params.to, near: params.near,
                                                                            region: params.region, regions: regions)
            let from = fromMatch.node, to = toMatch.node
            let zone = try regions.tripRegion(from: from.place, to: to.place).timeZone
            let preference = try input.timePreference(at: params.at, arriveBy: params.arriveBy, timeZone: zone)
            var answer = try await comparer.compare(TripComparer.Trip(from: from, to: to, fromText: params.from, toText: params.to),
                                                    timePreference: preference, pace: WalkingPace(params.pace),
                                                    access: AccessNeed(params.access), modes: modes, searches: typedPlaces.entries(typedEnds(params.from, from, params.to, to)))
            answer.document.from = WireDocuments.place(fromMatch)
            answer.document.to = WireDocuments.place(toMatch)
            answer.document.near = near.flatMap(WireDocuments.matchedPlace)
            if let picture {
                answer.document.map = try await map(of: answer.comparisons, zone: answer.zone, now: input.clock.now(), picture)
            }
            if params.geometry == true {
                for (index, comparison) in answer.comparisons.enumerated() {
                    guard let plan = comparison.plan, answer.document.options.indices.contains(index) else { continue }
                    let geometry = try mapData.geometry(of: plan, toleranceM: nil, now: input.clock.now())
                    answer.document.options[index].geometry = geometry.lines.map { $0.points.map { [$0.latitude, $0.longitude] } }
                }
            }
            return answer.document
        }
        table.register(Endpoints.planNew) { params, _ in
            WireDocuments.plan(try await service.new(PlanService.Order(params)), regions: regions, now: input.clock.now())
        }
        table.register(Endpoints.planList) { _, _ in
            // One zone for the whole table (plans come from every region): the machine's.
            PlanListDocument(plans: try await plans.list().map { summary in
                // The travel day in the plan's region's zone, as the agenda counts it.
                let day = summary.travelAt.map { at in
                    let origin = summary.origin.map { Place(name: summary.fromName, coordinate: $0) }
                    return PlanAgenda.day(at, timeZone: origin.map { regions.timeZone(from: $0, to: $0) } ?? TimeZone.current)
                }
                return PlanSummaryDocument(id: summary.id, title: summary.title, from: summary.fromName, to: summary.toName,
                                           updatedAt: WireTime.string(from: summary.updatedAt, timeZone: TimeZone.current),
                                           totalDurationS: summary.totalTravelTime.map(WireDocuments.whole), day: day)
            })
        }
        table.register(Endpoints.planShow) { params, _ in
            let outcome = try await plans.show(id: params.id)
            var document = WireDocuments.plan(outcome, regions: regions, now: input.clock.now())
            if params.geometry == true {
                let geometry = try mapData.geometry(of: outcome.plan, toleranceM: params.toleranceM, now: input.clock.now())
                WireDocuments.addGeometry(geometry, to: &document)
            }
            return document
        }
        table.register(Endpoints.planDelete) { params, _ in
            try await service.delete(id: params.id, expectedGeneration: params.expectedGeneration)
            return DeletedDocument(deleted: params.id)
        }
        table.register(Endpoints.planLink) { params, _ in
            let plan = try await plans.show(id: params.id).plan
            let segment = try input.segmentIndex(params.segment, in: plan)
            // "Now" as `plan.show` uses it: a leave-now plan's walk and car legs are timed from it.
            let link = try GoogleMapsLink.build(plan: plan, segment: segment, timeZone: regions.timeZone(of: plan),
                                                now: input.clock.now())
            return LinkDocument(url: link.url, form: link.form.rawValue, fallbackReason: link.fallbackReason,
                                segment: params.segment, mode: WireMode(plan.modes[segment]))
        }
    }

    /// Every mode's route of a comparison on one picture, each in its mode's colour.
    func map(of comparisons: [ModeComparison], zone: TimeZone, now: Date, _ request: MapPictureRequest) async throws -> MapImageDocument {
        let options = try comparisons.compactMap { comparison -> (mode: TravelMode, geometry: PlanGeometry)? in
            guard let plan = comparison.plan else { return nil }
            return (comparison.mode, try mapData.geometry(of: plan, toleranceM: 0, now: now))
        }
        guard let origin = options.first?.geometry.nodes.first?.coordinate else { throw MapRenderingError.emptyScene }
        return try await mapData.picture(.comparison(options, timeZone: zone), near: origin, request)
    }
}

extension PlanMethods {
    /// The ends of a trip that were typed as text to search (not saved places, coordinates or `@here`).
    func typedEnds(_ fromText: String, _ from: PlanNode, _ toText: String, _ to: PlanNode) -> [TypedPlaceHistory.Typed] {
        [typedPlaces.typed(fromText, resolved: from.place), typedPlaces.typed(toText, resolved: to.place)].compactMap { $0 }
    }
}

extension PlanService.Order {
    /// `plan.new`'s params in the daemon's words (the places and times are read by the service).
    init(_ params: Params.PlanNew) {
        self.init(from: params.from, to: params.to, via: params.via, near: params.near, region: params.region,
                  preset: PlanPreset(params.mode), at: params.at, arriveBy: params.arriveBy, pace: WalkingPace(params.pace),
                  title: params.title, access: AccessNeed(params.access))
    }
}

extension WireDocuments {
    /// A plan as the repository has it, in its region's time zone.
    static func plan(_ outcome: PlanRepository.Outcome, regions: RegionRegistry, now: Date) -> PlanDocument {
        let zone = regions.timeZone(of: outcome.plan)
        var document = plan(outcome.plan, id: outcome.id, title: outcome.title, generation: outcome.generation,
                            timeZone: zone, now: now, failures: outcome.failures, price: regions.price(of: outcome.plan))
        document.coverageNote = regions.coverageNote(for: outcome.plan, now: now)
        let matched = outcome.matched.compactMap(matchedPlace)
        if !matched.isEmpty { document.matched = matched }
        if !outcome.modeNotes.isEmpty { document.modeNotes = outcome.modeNotes }
        if !outcome.removedPins.isEmpty {
            document.removedPins = outcome.removedPins.map {
                RemovedPinDocument(from: $0.from, to: $0.to, departure: WireTime.string(from: $0.departure, timeZone: zone))
            }
        }
        return document
    }
}
