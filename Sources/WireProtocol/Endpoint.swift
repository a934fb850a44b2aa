/// One method of the protocol tied to its params type and its result type, so the client
/// cannot send the wrong params or read the wrong result, and the daemon's handler for it
/// takes exactly those params and returns exactly that result.
///
/// ```swift
/// let plan = try await client.call(Endpoints.planShow, Params.PlanShow(id: 3)) // a PlanDocument
/// ```
public struct Endpoint<Params: Codable & Sendable, Result: Codable & Sendable>: Sendable {
    public let method: WireMethod

    public init(_ method: WireMethod) { self.method = method }
}

/// Every method's contract, in the order of `docs/protocol.md`; a plan edit's is its params'
/// (`Params.PlanMode.endpoint`, `PlanEditParams`).
public enum Endpoints {
    public static let hello = Endpoint<Params.Hello, HelloDocument>(.hello)
    public static let status = Endpoint<Params.Empty, StatusDocument>(.status)
    public static let watch = Endpoint<Params.Empty, WatchEndDocument>(.watch)

    public static let regionImport = Endpoint<Params.RegionImport, RegionImportDocument>(.regionImport)
    public static let regionList = Endpoint<Params.ServiceDay, RegionListDocument>(.regionList)
    public static let regionSet = Endpoint<Params.RegionSet, RegionDocument>(.regionSet)
    public static let regionRemove = Endpoint<Params.Name, RemovedDocument>(.regionRemove)
    public static let regionUpdate = Endpoint<Params.RegionUpdate, RegionUpdateDocument>(.regionUpdate)

    public static let search = Endpoint<Params.Search, SearchDocument>(.search)
    public static let searchComplete = Endpoint<Params.Search, SearchDocument>(.searchComplete)
    public static let `where` = Endpoint<Params.Where, WhereDocument>(.where)
    public static let placeSave = Endpoint<Params.PlaceSave, PlaceDocument>(.placeSave)
    public static let placeList = Endpoint<Params.Empty, PlaceListDocument>(.placeList)
    public static let placeRename = Endpoint<Params.PlaceRename, RenamedDocument>(.placeRename)
    public static let placeRemove = Endpoint<Params.Name, RemovedDocument>(.placeRemove)
    public static let placeFence = Endpoint<Params.PlaceFence, PlaceFenceDocument>(.placeFence)

    public static let locationSet = Endpoint<Params.LocationSet, LocationDocument>(.locationSet)
    public static let locationShow = Endpoint<Params.Empty, LocationDocument>(.locationShow)

    public static let compare = Endpoint<Params.Compare, CompareDocument>(.compare)
    public static let planNew = Endpoint<Params.PlanNew, PlanDocument>(.planNew)
    public static let planList = Endpoint<Params.Empty, PlanListDocument>(.planList)
    public static let planShow = Endpoint<Params.PlanShow, PlanDocument>(.planShow)
    public static let planDelete = Endpoint<Params.PlanID, DeletedDocument>(.planDelete)
    public static let planLink = Endpoint<Params.PlanLink, LinkDocument>(.planLink)
    public static let planRemind = Endpoint<Params.PlanRemind, PlanReminderDocument>(.planRemind)
    public static let planExport = Endpoint<Params.PlanExport, ExportDocument>(.planExport)
    public static let agendaDay = Endpoint<Params.AgendaDay, AgendaDocument>(.agendaDay)
    public static let planMap = Endpoint<Params.PlanMap, MapImageDocument>(.planMap)

    /// Several edits of one plan, all or none, with one recompute (`PlanEdit`).
    public static let planEdits = Endpoint<Params.PlanEdits, PlanDocument>(.planEdits)

    public static let historySearches = Endpoint<Params.HistoryList, HistoryDocument>(.historySearches)
    public static let historyRoutes = Endpoint<Params.HistoryList, HistoryDocument>(.historyRoutes)
    public static let historyVisits = Endpoint<Params.HistoryList, VisitHistoryDocument>(.historyVisits)
    public static let historyClear = Endpoint<Params.HistoryClear, ClearedDocument>(.historyClear)
    public static let historyRerun = Endpoint<Params.HistoryRerun, RerunDocument>(.historyRerun)
    public static let historyDelete = Endpoint<Params.HistoryEntryID, HistoryDeletedDocument>(.historyDelete)
}

/// A day of several places and the user's choices in it (docs/protocol.md "Day plans and choices").
extension Endpoints {
    public static let planAlternatives = Endpoint<Params.PlanAlternatives, AlternativesDocument>(.planAlternatives)
    public static let planCopy = Endpoint<Params.PlanCopy, PlanDocument>(.planCopy)
}
