import Foundation

/// An edit of `plan.edits` (or of the background refresh) that failed: nothing was changed. The
/// edit's own error keeps its word; `Methods` says it with the edit's number and method.
struct PlanEditFailure: Error {
    /// The edit's place in the list, from 1.
    var number: Int
    /// The edit's method (`plan.mode`).
    var name: String
    var error: Error
}

extension PlanEditFailure: CustomStringConvertible {
    var description: String { "edit \(number) (\(name)): \(error); nothing was changed" }
}
