import Planner

/// The daemon side's display rule, named apart from `WireProtocol.ShownTime` (umctl's), which
/// `ShownTimeAgreementTests` holds it to.
typealias PlannerShownTime = ShownTime
