// swift-tools-version:6.0
// Useful Map: a door-to-door trip planner daemon (`usefulmapd`) and its thin client (`umctl`).
//
// Layering: dependencies point inward, and Tests/ArchitectureTests re-checks every
// `import` line so nobody widens them by accident.
//
//   Executors (named OS threads as Swift executors, and a plain thread's waits; Foundation only)
//     ← Store, Streets, Notifications, Daemon, the bench
//   Planner (domain + planner; Foundation only)
//     ← SQLite (typed wrapper of the system libsqlite3)
//     ← Store, Streets, Transit (adapters: storage, street routing, transit routing)
//     ← MapRendering (map pictures with the system libcairo)
//     ← PlanCalendar (iCalendar files with the system libical)
//   Fetching (HTTP(S) downloads with the system libcurl; Foundation only)
//   Notifications (desktop notifications over sd-bus from the system libsystemd)
//     ← Daemon (composition root and socket server) ← usefulmapd
//   WireProtocol (FoundationEssentials and Glibc only: umctl loads no Foundation or ICU) ← Daemon, umctl
//
// System libraries come from Debian packages listed in README.md. CGTFSRealtime is C code
// generated from gtfs-realtime.proto and linked with the system libprotobuf-c.
import PackageDescription

let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "UsefulMap",
    products: [
        .executable(name: "usefulmapd", targets: ["usefulmapd"]),
        .executable(name: "umctl", targets: ["umctl"]),
        .executable(name: "usefulmap-routino-worker", targets: ["usefulmap-routino-worker"]),
        .executable(name: "usefulmap-bench", targets: ["usefulmap-bench"]),
    ],
    targets: [
        // MARK: - System libraries
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "CRoutino", path: "Sources/CRoutino"),
        .systemLibrary(name: "CReadOSM", path: "Sources/CReadOSM"),
        .systemLibrary(name: "CZip", path: "Sources/CZip"),
        .systemLibrary(name: "CCairo", path: "Sources/CCairo"),
        .systemLibrary(name: "CLibMD", path: "Sources/CLibMD"),
        .systemLibrary(name: "CChildProcess", path: "Sources/CChildProcess"),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl"),
        .systemLibrary(name: "CICal", path: "Sources/CICal", pkgConfig: "libical"),
        .systemLibrary(name: "CSystemd", path: "Sources/CSystemd", pkgConfig: "libsystemd"),

        // MARK: - Domain
        .target(name: "Planner", resources: [.embedInCode("Resources/google-maps-format.json")], swiftSettings: swift6),

        // MARK: - Threads
        // The one thread primitive (named OS threads as Swift executors, a plain thread's waits)
        // and the one place that waits on semaphores; Foundation only. The store, the routing
        // workers, the notifier, the server's threads and the daemon's pools run on it.
        .target(name: "Executors", swiftSettings: swift6),

        // MARK: - Storage
        .target(name: "SQLite", dependencies: ["CSQLite"], swiftSettings: swift6),
        .target(name: "Store", dependencies: ["Planner", "SQLite", "CLibMD", "Executors"], swiftSettings: swift6, plugins: ["EmbedMigrations"]),
        .plugin(name: "EmbedMigrations", capability: .buildTool(), dependencies: ["embed-migrations"]),
        .executableTarget(name: "embed-migrations", path: "Plugins/EmbedMigrationsTool", swiftSettings: swift6),

        // MARK: - Street routing and places
        .target(name: "Streets", dependencies: ["Planner", "SQLite", "CLibMD", "CReadOSM", "CChildProcess", "Executors"], swiftSettings: swift6),
        .executableTarget(name: "usefulmap-routino-worker", dependencies: ["CRoutino"], swiftSettings: swift6),

        // MARK: - Transit routing
        // GTFS-Realtime: code protoc-c made from the official proto (scripts/generate-gtfs-realtime.sh).
        .target(name: "CGTFSRealtime", exclude: ["gtfs-realtime.proto", "README.md"],
                linkerSettings: [.linkedLibrary("protobuf-c")]),
        .target(name: "Transit", dependencies: ["Planner", "SQLite", "CZip", "CGTFSRealtime"], swiftSettings: swift6),

        // MARK: - Map pictures
        .target(name: "MapRendering", dependencies: ["Planner", "CCairo"], swiftSettings: swift6),

        // MARK: - Calendars (RFC 5545 with the system libical)
        .target(name: "PlanCalendar", dependencies: ["Planner", "CICal"], swiftSettings: swift6),

        // MARK: - Downloads (region sources and feeds by URL; only the daemon and the bench use it)
        .target(name: "Fetching", dependencies: ["CCurl"], swiftSettings: swift6),

        // MARK: - Desktop notifications (sd-bus from the system libsystemd; only the daemon uses them)
        .target(name: "Notifications", dependencies: ["CSystemd", "Executors"], swiftSettings: swift6),

        // MARK: - Wire protocol, daemon, client
        .target(name: "WireProtocol", dependencies: ["CLibMD"], swiftSettings: swift6),
        .target(name: "Daemon",
                dependencies: ["Planner", "Store", "Streets", "Transit", "MapRendering", "PlanCalendar", "Fetching", "Notifications", "WireProtocol",
                               "Executors"],
                // The web app's files, compiled in: an installed daemon serves them with no data folder.
                resources: ["index.html", "app.js", "views.js", "api.js", "style.css"].map { .embedInCode("Web/App/\($0)") },
                swiftSettings: swift6),
        .executableTarget(name: "usefulmapd", dependencies: ["Daemon"], swiftSettings: swift6),
        .executableTarget(name: "umctl", dependencies: ["WireProtocol"], swiftSettings: swift6),

        // MARK: - Benchmarks
        .executableTarget(name: "usefulmap-bench",
                          dependencies: ["Planner", "SQLite", "Store", "Streets", "Transit", "MapRendering", "Fetching", "WireProtocol",
                                         "Daemon", "HTTPTestSupport", "CZip", "Executors"],
                          swiftSettings: swift6),

        // MARK: - Tests
        .testTarget(name: "ArchitectureTests", swiftSettings: swift6),
        .testTarget(name: "ExecutorsTests", dependencies: ["Executors"], swiftSettings: swift6),
        .testTarget(name: "PlannerTests", dependencies: ["Planner", "TestSupport"], swiftSettings: swift6),
        .testTarget(name: "StoreTests", dependencies: ["Store", "SQLite", "Planner", "store-crash-child", "TestSupport"], swiftSettings: swift6),
        .executableTarget(name: "store-crash-child", dependencies: ["Store", "Planner"], path: "Tests/StoreCrashChild", swiftSettings: swift6),
        .testTarget(name: "StreetsTests", dependencies: ["Streets", "SQLite", "Planner", "TestSupport"], swiftSettings: swift6),
        .testTarget(name: "TransitTests", dependencies: ["Transit", "SQLite", "Planner", "TestSupport"], swiftSettings: swift6),
        .testTarget(name: "WireProtocolTests", dependencies: ["WireProtocol", "TestSupport"], swiftSettings: swift6),
        // Test-only helpers more than one test target needs.
        .target(name: "PictureTestSupport", dependencies: ["MapRendering", "CCairo"], path: "Tests/PictureTestSupport",
                swiftSettings: swift6),
        .target(name: "HTTPTestSupport", path: "Tests/HTTPTestSupport", exclude: ["local_http_server.py"],
                swiftSettings: swift6),
        // What the tests share, once: the daemon harness and test base classes, the locator of
        // ../shared/data, the GTFS and OSM writers, temporary directories.
        .target(name: "TestSupport", dependencies: ["WireProtocol", "Planner", "CZip"], path: "Tests/TestSupport",
                swiftSettings: swift6),
        .testTarget(name: "FetchingTests", dependencies: ["Fetching", "HTTPTestSupport", "TestSupport"], swiftSettings: swift6),
        .testTarget(name: "MapRenderingTests", dependencies: ["MapRendering", "Planner", "CCairo", "PictureTestSupport"],
                    swiftSettings: swift6),
        .testTarget(name: "DaemonIntegrationTests",
                    dependencies: ["WireProtocol", "Daemon", "Store", "SQLite", "Planner", "Streets", "Transit", "CZip", "MapRendering",
                                   "CCairo", "PictureTestSupport", "Fetching", "HTTPTestSupport", "usefulmap-bench",
                                   "PlanCalendar", "CICal", "TestSupport"],
                    swiftSettings: swift6),
        // umctl's own types (command lines, rendering, the machine's zone), tested in process: no daemon is started.
        .testTarget(name: "UmctlTests", dependencies: ["umctl", "WireProtocol", "TestSupport"], swiftSettings: swift6),
        // The daemon's own types, tested in process: no daemon is started and no socket opened.
        .testTarget(name: "DaemonTests",
                    dependencies: ["Daemon", "WireProtocol", "Store", "SQLite", "Planner", "Streets", "Transit", "TestSupport"],
                    swiftSettings: swift6),
    ]
)
