extension GoogleMapsLink {
    /// Whether `text` contains a directions link of the kind this builder makes (either form).
    ///
    /// The store refuses such text: a link carries a departure time that goes stale, so links
    /// are rebuilt from places and times when asked for, never kept. Other URLs are the user's
    /// own business. The format stays in this one place.
    public static func containsDirectionsLink(_ text: String) -> Bool {
        guard case .success(let format) = GoogleMapsFormat.embedded else { return false }
        return text.contains(format.primary.prefix) || text.contains(format.fallback.prefix)
    }
}
