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

/// Every method's contract, in the order of `docs/protocol.md`.
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
    public static let planLink = Endpoint<Params.PlanSegment, LinkDocument>(.planLink)
    public static let planRemind = Endpoint<Params.PlanRemind, PlanReminderDocument>(.planRemind)
    public static let planExport = Endpoint<Params.PlanExport, ExportDocument>(.planExport)
    public static let agendaDay = Endpoint<Params.AgendaDay, AgendaDocument>(.agendaDay)
    public static let planMap = Endpoint<Params.PlanMap, MapImageDocument>(.planMap)

    public static let planInsert = Endpoint<Params.PlanInsert, PlanDocument>(.planInsert)
    public static let planRemove = Endpoint<Params.PlanNode, PlanDocument>(.planRemove)
    public static let planMode = Endpoint<Params.PlanMode, PlanDocument>(.planMode)
    public static let planSwap = Endpoint<Params.PlanID, PlanDocument>(.planSwap)
    public static let planPreset = Endpoint<Params.PlanPreset, PlanDocument>(.planPreset)
    public static let planRebuild = Endpoint<Params.PlanPreset, PlanDocument>(.planRebuild)
    public static let planPin = Endpoint<Params.PlanPin, PlanDocument>(.planPin)
    public static let planUnpin = Endpoint<Params.PlanID, PlanDocument>(.planUnpin)
    public static let planPace = Endpoint<Params.PlanPace, PlanDocument>(.planPace)
    public static let planAccess = Endpoint<Params.PlanAccess, PlanDocument>(.planAccess)
    public static let planTime = Endpoint<Params.PlanTime, PlanDocument>(.planTime)
    public static let planRefine = Endpoint<Params.PlanRefine, PlanDocument>(.planRefine)
    public static let planAccept = Endpoint<Params.PlanSegment, PlanDocument>(.planAccept)
    public static let planDismiss = Endpoint<Params.PlanSegment, PlanDocument>(.planDismiss)
    public static let planRefresh = Endpoint<Params.PlanID, PlanDocument>(.planRefresh)
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
    public static let planStay = Endpoint<Params.PlanStay, PlanDocument>(.planStay)
    public static let planAlternatives = Endpoint<Params.PlanAlternatives, AlternativesDocument>(.planAlternatives)
    public static let planChoose = Endpoint<Params.PlanChoose, PlanDocument>(.planChoose)
    public static let planMove = Endpoint<Params.PlanMove, PlanDocument>(.planMove)
    public static let planUnlock = Endpoint<Params.PlanSegment, PlanDocument>(.planUnlock)
    public static let planRename = Endpoint<Params.PlanRename, PlanDocument>(.planRename)
    public static let planCopy = Endpoint<Params.PlanCopy, PlanDocument>(.planCopy)
}
