import Foundation

/// The one way tests find the shared data (`/work/shared/data`, never copied into the repository):
/// `$USEFULMAP_SHARED/data`, else `<repository root>/../shared/data`.
public enum SharedData {
    public static var folder: URL {
        if let shared = ProcessInfo.processInfo.environment["USEFULMAP_SHARED"], !shared.isEmpty {
            return URL(fileURLWithPath: shared).appendingPathComponent("data")
        }
        return repositoryRoot.appendingPathComponent("../shared/data").standardizedFileURL
    }

    /// The real Tampere region: `tampere.osm.pbf` and the Nysse feed `tampere.zip`.
    public static var tampere: URL { folder.appendingPathComponent("tampere") }
    public static var tampereOSM: URL { tampere.appendingPathComponent("tampere.osm.pbf") }
    public static var tampereFeed: URL { tampere.appendingPathComponent("tampere.zip") }

    /// This file is `<root>/Tests/TestSupport/SharedData.swift`.
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
