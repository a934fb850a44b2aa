extension RoutePlan {
    /// The title once an edit has turned this plan into `edited`, the one rule for every edit
    /// (alone or inside `plan.edits`): a title still generated from this plan's places
    /// (`generatedTitle`) follows them, so moving, inserting or removing a place renames it; when
    /// the edit turned the plan around (a swap), a title made of the plan's names from end to end
    /// is turned around too (`titleAfterSwap`); any other title the user set (`plan rename`,
    /// `--title`) stays.
    public func title(_ title: String, after edited: RoutePlan) -> String {
        if title == generatedTitle { return edited.generatedTitle }
        let ids = nodes.map(\.place.id)
        if edited.nodes.map(\.place.id) == ids.reversed(), ids != ids.reversed() { return titleAfterSwap(title) }
        return title
    }
}
