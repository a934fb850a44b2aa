/// How a place that an answer acts on (a trip's end, a place inserted or saved, a `--near`) was
/// found from the text typed, in the words the daemon reports: anything but `exact` comes with
/// a note, so a place is never swapped for another silently.
public enum PlaceMatchKind: String, Sendable, CaseIterable {
    /// The whole name, or the address with its number.
    case exact
    /// A name that starts with the text, or has its words as word starts.
    case prefix
    /// A name within one or two typos of the text, or, a guess when nothing else matched, named
    /// by all its words but one (`PlaceSearchResult.leftOutWord`).
    case typo
    /// An address answered by another number on the street, or by the street itself.
    case approximate
    /// A place of the kind a category word asked for ("pharmacy").
    case category
}

extension PlaceSearchResult {
    /// How this result answers the text (`PlaceMatchKind`).
    public var matchKind: PlaceMatchKind {
        switch match {
        case .exact: approximate == nil ? .exact : .approximate
        case .category: .category
        case .leading, .wholeWords, .prefix, .words: .prefix
        case .fuzzy: .typo
        }
    }
}
