extension RoutePlan {
    /// The title once an edit has turned this plan into `edited`: a title still generated from
    /// this plan's places (`generatedTitle`) follows them, so moving, inserting or removing a
    /// place renames it; a title the user set (`plan rename`, `--title`) stays.
    public func title(_ title: String, after edited: RoutePlan) -> String {
        title == generatedTitle ? edited.generatedTitle : title
    }
}
