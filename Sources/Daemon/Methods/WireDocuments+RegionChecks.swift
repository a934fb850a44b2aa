import WireProtocol

// A region update's wire result as the update schedule logs it: the schedule itself knows no wire.

extension WireDocuments {
    static func summary(of result: RegionUpdateResult) -> RegionCheckSummary {
        RegionCheckSummary(rebuilt: result.rebuilt, failure: result.error.map { ($0.code, $0.message) })
    }
}
