/// The params and result of `history.rerun` and `history.delete` (the list methods take
/// `Params.HistoryList`).
extension Params {
    /// `history.rerun`: a route history entry's `id`, and optionally another time (`at`, depart at).
    public struct HistoryRerun: Hashable, Sendable, Codable {
        public var id: String
        public var at: String?
        public init(id: String, at: String? = nil) {
            self.id = id
            self.at = at
        }
    }

    /// `history.delete`: an entry's `id` (`s12` a search, `r7` a route).
    public struct HistoryEntryID: Hashable, Sendable, Codable {
        public var id: String
        public init(id: String) { self.id = id }
    }
}

/// `history.delete`: the entry removed.
public struct HistoryDeletedDocument: Hashable, Sendable, Codable {
    public var deleted: String
    public init(deleted: String) { self.deleted = deleted }
}
