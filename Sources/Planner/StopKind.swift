/// Train station or bus stop, guessed from a stop's name. Used only for display and for
/// "prefer a train station for long distances", never for times (GTFS `route_type` is better
/// evidence when a stop comes from a feed).
public enum StopKind: String, Sendable, Codable, CaseIterable {
    case train, bus

    static let busMarkers = ["バス停", "停留所", "停留場", "電停", "バスターミナル", "bus stop", "bus terminal",
                             "정류장", "公交", "巴士"]
    static let trainMarkers = ["駅", "station", "역", "站", "新幹線", "地下鉄", "メトロ", "metro", "subway", "rail",
                               "線のりば"]

    /// Bus markers are checked first ("… Station bus stop" is a bus stop), then train markers;
    /// with neither, a bus stop (the more common kind).
    public static func infer(fromName name: String) -> StopKind {
        let lowered = name.lowercased()
        if busMarkers.contains(where: { lowered.contains($0) }) { return .bus }
        if trainMarkers.contains(where: { lowered.contains($0) }) { return .train }
        return .bus
    }
}
