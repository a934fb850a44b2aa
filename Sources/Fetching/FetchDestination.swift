import Foundation

/// Where a fetched body goes: into the response (`.memory`) or into a file, which is created,
/// or appended to when the request resumes an interrupted transfer.
public enum FetchDestination: Sendable {
    case memory
    case file(URL)
}
