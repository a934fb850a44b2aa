import Foundation
import Store
import WireProtocol

/// `history.searches`, `history.routes`, `history.clear`. Times are in the machine's zone, one
/// zone for the whole table (entries come from every region).
struct HistoryMethods: Sendable {
    let history: Store

    func register(in table: inout MethodTable) {
        table.register(Endpoints.historySearches) { params, _ in
            HistoryDocument(entries: try history.searchHistory(limit: limit(params)).map { entry in
                HistoryEntryDocument(label: entry.query, place: entry.place.map { WireDocuments.place($0) },
                                     at: WireTime.string(from: entry.date, timeZone: TimeZone.current))
            })
        }
        table.register(Endpoints.historyRoutes) { params, _ in
            HistoryDocument(entries: try history.routeHistory(limit: limit(params)).map { entry in
                HistoryEntryDocument(label: "\(entry.from.name) → \(entry.to.name)", from: WireDocuments.place(entry.from),
                                     to: WireDocuments.place(entry.to),
                                     at: WireTime.string(from: entry.date, timeZone: TimeZone.current),
                                     modes: entry.modes.map(\.rawValue))
            })
        }
        table.register(Endpoints.historyClear) { params, _ in
            switch params.which {
            case "searches": try history.clearSearchHistory()
            case "routes": try history.clearRouteHistory()
            case "visits": try history.clearVisitHistory()
            default: throw DaemonError.invalidParams("which \"\(params.which)\" must be searches, routes or visits")
            }
            return ClearedDocument(cleared: params.which)
        }
    }

    private func limit(_ params: Params.HistoryList) throws -> Int {
        let limit = params.limit ?? Store.historyLimit
        guard (1...Store.historyLimit).contains(limit) else {
            throw DaemonError.invalidParams("limit must be 1 to \(Store.historyLimit), got \(limit)")
        }
        return limit
    }
}
