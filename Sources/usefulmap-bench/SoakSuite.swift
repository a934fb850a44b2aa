import Foundation
import WireProtocol

/// `usefulmap-bench soak [--requests=N]`: N mixed valid requests (default 100,000) on Tampere
/// through one connection — status, search, places, location, plans and their edits, history,
/// a few compares — and the daemon's resident memory after each tenth of them; then the storms
/// of `StormProbes`.
func runSoakSuite() async throws -> SuiteReport {
    let total = Int(benchOption("requests") ?? "") ?? 100_000
    let daemon = try BenchDaemon(importTampere: true)
    defer { daemon.stop() }
    let client = try WireClient(socketPath: daemon.socketPath)
    var report = SuiteReport(suite: "soak")
    let plan = try await client.call(Endpoints.planNew, Params.PlanNew(from: "61.4978,23.7610", to: "61.4502,23.8510",
                                                                   at: "2022-01-12T08:00"))
    report.add("daemon RSS after import and the first plan", daemon.residentMiB ?? 0, unit: "MiB")
    var random = SeededGenerator(seed: 100_000)
    var failures = 0
    let started = DispatchTime.now().uptimeNanoseconds
    for index in 0..<total {
        let lat = 61.45 + Double.random(in: 0..<0.05, using: &random)
        let lon = 23.72 + Double.random(in: 0..<0.12, using: &random)
        let point = String(format: "%.5f,%.5f", lat, lon)
        do {
            switch index % 100 {
            case 0: _ = try await client.call(Endpoints.compare, Params.Compare(from: point, to: "61.4502,23.8510", at: "2022-01-12T08:00"))
            case 1:
                let made = try await client.call(Endpoints.planNew, Params.PlanNew(from: point, to: "61.4978,23.7610", mode: .walk))
                _ = try await client.call(Endpoints.planDelete, Params.PlanID(id: made.id))
            case 2: _ = try await client.call(Params.PlanMode.endpoint, Params.PlanMode(id: plan.id, segment: 1, mode: index % 200 == 2 ? .car : .walk))
            case 3..<30: _ = try await client.call(Endpoints.search, Params.Search(text: ["Keskustori", "Hämeenkatu", "Hervanta", "Tampere-talo"][index % 4],
                                                                                  near: point, limit: 5))
            case 30..<40:
                _ = try await client.call(Endpoints.placeSave, Params.PlaceSave(name: "soak \(index)", place: point))
                _ = try await client.call(Endpoints.placeRemove, Params.Name(name: "soak \(index)"))
            case 40..<50: _ = try await client.call(Endpoints.locationSet, Params.LocationSet(lat: lat, lon: lon))
            case 50..<60: _ = try await client.call(Endpoints.planShow, Params.PlanShow(id: plan.id))
            case 60..<70: _ = try await client.call(Endpoints.historySearches, Params.HistoryList(limit: 20))
            case 70..<80: _ = try await client.call(Endpoints.placeList, Params.Empty())
            default: _ = try await client.call(Endpoints.status, Params.Empty())
            }
        } catch is WireError {
            failures += 1 // a point with no road nearby, say: an answer all the same
        }
        if (index + 1) % (total / 10) == 0 {
            report.add("daemon RSS after \(index + 1) requests", daemon.residentMiB ?? 0, unit: "MiB")
        }
    }
    report.add("requests per second", Double(total) / (Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9), unit: "1/s")
    report.add("error answers", Double(failures), unit: "count")
    try StormProbes.run(daemon: daemon, planID: plan.id, into: &report)
    return report
}
