import Planner
import Streets

/// A place typed as text and what it became: the plan node and, when a search found it, the
/// region, how it matched (`PlaceMatchKind`) and, for anything but an exact match, a note that
/// says so. Every answer that acts on a typed place reports this, so a place is never swapped
/// for another silently (`umctl` prints the note).
public struct ResolvedPlace: Sendable {
    /// What was typed, trimmed.
    public var text: String
    public var node: PlanNode
    /// The region whose index found it; nil when no search was needed.
    public var region: String?
    /// How the search matched; nil for `@here`, coordinates and a saved place's name.
    public var match: PlaceMatchKind?
    public var note: String?

    /// A place that needed no search: `@here`, coordinates, a saved place's name.
    init(text: String, unsearched node: PlanNode) {
        self.text = text
        self.node = node
    }

    /// A place found by searching `text` in `region`.
    init(text: String, found result: PlaceSearchResult, region: String) {
        self.text = text
        self.node = PlanNode(place: result.place)
        self.region = region
        self.match = result.matchKind
        self.note = Self.note(text: text, result: result, region: region)
    }

    public var place: Place { node.place }

    /// Why the place taken is not exactly the one typed; nil for an exact match.
    static func note(text: String, result: PlaceSearchResult, region: String) -> String? {
        let taken = "\(result.address ?? result.name) in \(region)"
        switch result.matchKind {
        case .exact:
            return nil
        case .prefix:
            let how = switch result.match {
            case .wholeWords: "whose name has it as a word"
            case .words: "whose name has its words"
            default: "whose name starts with it"
            }
            return "\"\(text)\" is no whole name; taking \(taken), \(how)"
        case .typo:
            if let left = result.leftOutWord {
                return "\"\(text)\" matches no name; taking \(taken), named by its words but \"\(left)\""
            }
            return "\"\(text)\" matches no name exactly; taking \(taken), a typo away"
        case .approximate:
            return "\"\(text)\": \(result.approximate ?? "not found exactly"); taking \(taken)"
        case .category:
            let kind = result.category.flatMap { PlaceCategory.of(tag: $0)?.label.lowercased() } ?? "place of that kind"
            return "\"\(text)\" names a kind of place; taking the \(kind) \(taken)"
        }
    }
}
