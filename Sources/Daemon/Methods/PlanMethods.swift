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
    /// `compare` from what was typed.
    let compare: TripCompareService
    let regions: RegionRegistry
    let input: WireInput
    /// Geometry for `plan.show`, and `compare`'s picture.
    let mapData: RegionMapData

    func register(in table: inout MethodTable) {
        table.register(Endpoints.compare) { params, _ in
            let picture = try params.map.map(MapPictureRequest.init)  // checked before any work
            let compared = try await compare.compare(TripCompareService.Order(params, modes: try input.comparedModes(params.modes)))
            return try await document(compared, picture: picture, geometry: params.geometry == true)
        }
        table.register(Endpoints.planNew) { params, _ in
            WireDocuments.plan(try await service.new(PlanService.Order(params)), regions: regions, now: input.clock.now())
        }
        table.register(Endpoints.planList) { _, _ in
            // One zone for the updated times (plans come from every region): the machine's.
            let now = input.clock.now()
            return PlanListDocument(plans: try await plans.list().map { WireDocuments.planSummary($0, regions: regions, now: now) })
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

    /// `compare`'s answer: the trip compared, how its ends matched, and on request its picture
    /// and each option's line.
    func document(_ compared: TripCompareService.Compared, picture: MapPictureRequest?, geometry: Bool) async throws -> CompareDocument {
        let comparisons = compared.comparison.comparisons
        var document = WireDocuments.compare(compared.comparison)
        document.from = WireDocuments.place(compared.from)
        document.to = WireDocuments.place(compared.to)
        document.near = compared.near.flatMap(WireDocuments.matchedPlace)
        if let picture {
            document.map = try await map(of: comparisons, zone: compared.comparison.zone, now: input.clock.now(), picture)
        }
        if geometry {
            for (index, comparison) in comparisons.enumerated() {
                guard let plan = comparison.plan, document.options.indices.contains(index) else { continue }
                let geometry = try mapData.geometry(of: plan, toleranceM: nil, now: input.clock.now())
                document.options[index].geometry = geometry.lines.map { $0.points.map { [$0.latitude, $0.longitude] } }
            }
        }
        return document
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

extension TripCompareService.Order {
    /// `compare`'s params in the daemon's words; `modes` already read (`WireInput.comparedModes`).
    init(_ params: Params.Compare, modes: [TravelMode]) {
        self.init(from: params.from, to: params.to, near: params.near, region: params.region, at: params.at,
                  arriveBy: params.arriveBy, pace: WalkingPace(params.pace), access: AccessNeed(params.access), modes: modes)
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
                            timeZone: zone, now: now, failures: outcome.failures, price: regions.price(of: outcome.plan, now: now))
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
