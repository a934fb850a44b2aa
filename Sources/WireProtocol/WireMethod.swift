/// Every method the daemon answers. `docs/protocol.md` documents each one; the client and the
/// daemon both spell method names only through this type.
public enum WireMethod: String, CaseIterable, Sendable {
    case hello
    case status
    case regionImport = "region.import"
    case regionList = "region.list"
    case regionRemove = "region.remove"
    case regionSet = "region.set"
    case regionUpdate = "region.update"
    case search
    case searchComplete = "search.complete"
    case `where`
    case placeSave = "place.save"
    case placeList = "place.list"
    case placeRename = "place.rename"
    case placeRemove = "place.remove"
    case placeFence = "place.fence"
    case locationSet = "location.set"
    case locationShow = "location.show"
    case compare
    case planNew = "plan.new"
    case planList = "plan.list"
    case planShow = "plan.show"
    case planDelete = "plan.delete"
    case planInsert = "plan.insert"
    case planRemove = "plan.remove"
    case planMode = "plan.mode"
    case planSwap = "plan.swap"
    case planPreset = "plan.preset"
    case planRebuild = "plan.rebuild"
    case planPin = "plan.pin"
    case planUnpin = "plan.unpin"
    case planPace = "plan.pace"
    case planAccess = "plan.access"
    case planTime = "plan.time"
    case planRefine = "plan.refine"
    case planAccept = "plan.accept"
    case planDismiss = "plan.dismiss"
    case planRefresh = "plan.refresh"
    case planLink = "plan.link"
    case planRemind = "plan.remind"
    case planExport = "plan.export"
    case planMap = "plan.map"
    case planStay = "plan.stay"
    case planAlternatives = "plan.alternatives"
    case planChoose = "plan.choose"
    case planMove = "plan.move"
    case planUnlock = "plan.unlock"
    case planRename = "plan.rename"
    case planCopy = "plan.copy"
    case planEdits = "plan.edits"
    case agendaDay = "agenda.day"
    case historySearches = "history.searches"
    case historyRoutes = "history.routes"
    case historyVisits = "history.visits"
    case historyClear = "history.clear"
    case historyRerun = "history.rerun"
    case historyDelete = "history.delete"
    case watch

    /// Methods that send notifications before their final response.
    public var isStreaming: Bool { self == .regionImport || self == .watch }

    /// Reads that change nothing, so they may go in one write with a `hello` not yet answered
    /// (`WireClient.hello(_:)`): a daemon that refuses the version answers them unread.
    public var mayGoWithHello: Bool { Self.mayGoWithHello(named: rawValue) }

    /// `mayGoWithHello` of the method of this name (false for a name no method has), without
    /// `init(rawValue:)`, whose first use builds a table of every method's name: 4 % of a
    /// whole `umctl status`, which asks this once.
    public static func mayGoWithHello(named name: String) -> Bool {
        name == Self.status.rawValue || name == Self.placeList.rawValue
    }

    /// Notification method names.
    public static let progressNotification = "progress"
    public static let eventNotification = "event"
}
