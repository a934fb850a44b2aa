/// Every method the daemon answers. `docs/protocol.md` documents each one; the client and the
/// daemon both spell method names only through this type. A plan edit's method is declared by
/// its params (`PlanEditParams.method`), so that adding an edit touches no list here; only
/// this module declares methods, and `init(rawValue:)` knows only the declared ones.
public struct WireMethod: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    /// The method of this name, or nil when the daemon answers none.
    public init?(rawValue: String) {
        guard Self.names.contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// A method of the protocol: one of the constants below, or a plan edit's.
    init(declaring name: String) { rawValue = name }

    /// Every method: those declared here, then the plan edits' (`PlanEdit.kinds`).
    public static let allCases: [WireMethod] = [
        .hello, .status, .regionImport, .regionList, .regionRemove, .regionSet, .regionUpdate, .search,
        .searchComplete, .`where`, .placeSave, .placeList, .placeRename, .placeRemove, .placeFence,
        .locationSet, .locationShow, .compare, .planNew, .planList, .planShow, .planDelete, .planLink,
        .planRemind, .planExport, .planMap, .planAlternatives, .planCopy, .planEdits, .agendaDay,
        .historySearches, .historyRoutes, .historyVisits, .historyClear, .historyRerun, .historyDelete, .watch,
    ] + PlanEdit.methods

    /// The names of `allCases`, for `init(rawValue:)`.
    private static let names = Set(allCases.map(\.rawValue))

    public static let hello = WireMethod(declaring: "hello")
    public static let status = WireMethod(declaring: "status")
    public static let regionImport = WireMethod(declaring: "region.import")
    public static let regionList = WireMethod(declaring: "region.list")
    public static let regionRemove = WireMethod(declaring: "region.remove")
    public static let regionSet = WireMethod(declaring: "region.set")
    public static let regionUpdate = WireMethod(declaring: "region.update")
    public static let search = WireMethod(declaring: "search")
    public static let searchComplete = WireMethod(declaring: "search.complete")
    public static let `where` = WireMethod(declaring: "where")
    public static let placeSave = WireMethod(declaring: "place.save")
    public static let placeList = WireMethod(declaring: "place.list")
    public static let placeRename = WireMethod(declaring: "place.rename")
    public static let placeRemove = WireMethod(declaring: "place.remove")
    public static let placeFence = WireMethod(declaring: "place.fence")
    public static let locationSet = WireMethod(declaring: "location.set")
    public static let locationShow = WireMethod(declaring: "location.show")
    public static let compare = WireMethod(declaring: "compare")
    public static let planNew = WireMethod(declaring: "plan.new")
    public static let planList = WireMethod(declaring: "plan.list")
    public static let planShow = WireMethod(declaring: "plan.show")
    public static let planDelete = WireMethod(declaring: "plan.delete")
    public static let planLink = WireMethod(declaring: "plan.link")
    public static let planRemind = WireMethod(declaring: "plan.remind")
    public static let planExport = WireMethod(declaring: "plan.export")
    public static let planMap = WireMethod(declaring: "plan.map")
    public static let planAlternatives = WireMethod(declaring: "plan.alternatives")
    public static let planCopy = WireMethod(declaring: "plan.copy")
    public static let planEdits = WireMethod(declaring: "plan.edits")
    public static let agendaDay = WireMethod(declaring: "agenda.day")
    public static let historySearches = WireMethod(declaring: "history.searches")
    public static let historyRoutes = WireMethod(declaring: "history.routes")
    public static let historyVisits = WireMethod(declaring: "history.visits")
    public static let historyClear = WireMethod(declaring: "history.clear")
    public static let historyRerun = WireMethod(declaring: "history.rerun")
    public static let historyDelete = WireMethod(declaring: "history.delete")
    public static let watch = WireMethod(declaring: "watch")

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
