/// How far a whole import is, from the phase it is in: each phase owns a span of 0…1, sized
/// by how long it usually takes (planetsplitter and the transit steps take the most), so the
/// overall figure only grows while each phase restarts at 0.
struct RegionImportPhases: Sendable {
    private var spans: [String: (start: Double, width: Double)] = [:]

    /// - parameter steps: the additional steps' names (e.g. "transit timetable"), in order.
    init(steps: [String]) {
        let stepsWidth = steps.isEmpty ? 0 : 0.40
        var start = 0.0
        func add(_ phase: String, _ width: Double) {
            spans[phase] = (start, width)
            start += width
        }
        add("checking sources", 0.02)
        add("building routing database", 0.75 - stepsWidth)
        add("indexing places", 0.20 - stepsWidth / 8)
        for step in steps { add(step, (stepsWidth - stepsWidth / 8) / Double(steps.count)) }
        add("time zone", 0.01)
        add("switching", 1 - start)
    }

    /// The overall fraction for an update: its phase's start plus its share of the phase.
    func overall(_ update: RegionImportProgress) -> Double? {
        guard let span = spans[update.phase] else { return nil }
        return min(1, span.start + span.width * min(1, max(0, update.fraction ?? 0)))
    }
}
