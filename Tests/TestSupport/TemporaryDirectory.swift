import Foundation
import Glibc

/// A fresh directory for one test's files, removed by `remove()` (or by the test's tear-down
/// with `removed(after:)`).
public struct TemporaryDirectory: Sendable {
    public let url: URL

    /// A directory under the system temporary directory named `usefulmap-<label>-<random>`.
    public init(_ label: String = "store") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("usefulmap-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    private init(url: URL) { self.url = url }

    /// A directory with a short path, `/tmp/umit-XXXXXX`: a socket path inside it must fit in 108 bytes.
    public static func short() throws -> TemporaryDirectory {
        var template = Array("/tmp/umit-XXXXXX".utf8CString)
        guard let result = mkdtemp(&template) else { throw HarnessError("mkdtemp failed") }
        return TemporaryDirectory(url: URL(fileURLWithPath: String(cString: result), isDirectory: true))
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    public func remove() {
        // Restore write permission first in case a test made the directory read-only.
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        try? FileManager.default.removeItem(at: url)
    }
}

/// What the test support throws when it cannot set a test up.
public struct HarnessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
