import Daemon
import Foundation
import Planner
import TestSupport
import WireProtocol
import XCTest

/// Flags beat environment beat config file beat defaults, and bad settings are named.
final class DaemonConfigurationTests: XCTestCase {
    let home = ["HOME": "/home/ann"]

    func testDefaultsFollowXDGDirectories() throws {
        let configuration = try DaemonConfiguration.resolve(
            arguments: [], environment: home.merging(["XDG_DATA_HOME": "/d", "XDG_RUNTIME_DIR": "/run/user/1000"]) { $1 })
        XCTAssertEqual(configuration.dataDirectory, "/d/usefulmap")
        XCTAssertEqual(configuration.socketPath, "/run/user/1000/usefulmap/usefulmapd.sock")
        XCTAssertEqual(configuration.databasePath, "/d/usefulmap/usefulmap.sqlite")
        XCTAssertEqual(configuration.logLevel, .info)
    }

    func testWithoutXDGRuntimeDirTheDaemonListensWhereUmctlLooks() throws {
        let configuration = try DaemonConfiguration.resolve(arguments: [], environment: home)
        XCTAssertEqual(configuration.socketPath, "/tmp/usefulmap-\(getuid())/usefulmap/usefulmapd.sock")
        XCTAssertEqual(configuration.socketPath, DefaultSocketPath.resolve(environment: home))
    }

    func testWithoutXDGDataHomeTheDataLivesUnderHome() throws {
        let configuration = try DaemonConfiguration.resolve(arguments: [], environment: home)
        XCTAssertEqual(configuration.dataDirectory, "/home/ann/.local/share/usefulmap")
    }

    func testFlagBeatsEnvironmentWhichBeatsConfigFile() throws {
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("usefulmapd.conf")
        try "data_dir = /from/file\nlog_level = error # quiet\nsocket = /file.sock\n".write(to: file, atomically: true, encoding: .utf8)
        let configuration = try DaemonConfiguration.resolve(
            arguments: ["--config", file.path, "--socket=/flag.sock"],
            environment: home.merging(["USEFULMAP_LOG_LEVEL": "debug"]) { $1 })
        XCTAssertEqual(configuration.socketPath, "/flag.sock")
        XCTAssertEqual(configuration.logLevel, .debug)
        XCTAssertEqual(configuration.dataDirectory, "/from/file")
        XCTAssertEqual(configuration.configFile, file.path)
    }

    func testUnknownConfigKeyNamesTheFileAndLine() throws {
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("usefulmapd.conf")
        try "# ok\ncolour = blue\n".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try DaemonConfiguration.resolve(arguments: ["--config", file.path], environment: home)) { error in
            XCTAssertTrue("\(error)".contains("usefulmapd.conf:2"), "\(error)")
        }
    }

    func testStreetWorkersDefaultToOnePerStreetProfile() throws {
        let configuration = try DaemonConfiguration.resolve(arguments: [], environment: home)
        XCTAssertEqual(configuration.streetWorkers, 4, "walk, bike, car and wheelchair each have a worker")
        XCTAssertEqual(try DaemonConfiguration.resolve(arguments: ["--street-workers", "1"], environment: home).streetWorkers, 1)
    }

    func testBadValuesAndFlagsAreRejectedByName() {
        for (arguments, needle) in [(["--log-level", "loud"], "log level"), (["--street-workers", "0"], "street workers"), (["--max-transfers", "9"], "max transfers"),
                                    (["--shutdown-grace", "-1"], "shutdown grace"), (["--socket"], "--socket needs a value"),
                                    (["--verbose"], "--verbose")] {
            XCTAssertThrowsError(try DaemonConfiguration.resolve(arguments: arguments, environment: home)) { error in
                XCTAssertTrue("\(error)".contains(needle), "\(arguments): \(error)")
            }
        }
    }

    func testGTFSLimitsComeFromFlagsEnvironmentAndConfigFileWithDocumentedDefaults() throws {
        let defaults = try DaemonConfiguration.resolve(arguments: [], environment: home).gtfsLimits
        XCTAssertEqual([defaults.maxFileBytes, defaults.maxFeedBytes, defaults.maxCompressionRatio,
                        Int64(defaults.maxLineBytes), defaults.maxImportMemoryBytes],
                       [1024 << 20, 2048 << 20, 100, 64 << 10, 2048 << 20], "docs/operations.md's defaults")
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("usefulmapd.conf")
        try "gtfs_max_ratio = 40\nimport_memory_mb = 300\n".write(to: file, atomically: true, encoding: .utf8)
        let limits = try DaemonConfiguration.resolve(
            arguments: ["--config", file.path, "--gtfs-max-file-mb", "10", "--gtfs-max-line-kb=2"],
            environment: home.merging(["USEFULMAP_GTFS_MAX_FEED_MB": "20"]) { $1 }).gtfsLimits
        XCTAssertEqual(limits.maxFileBytes, 10 << 20)
        XCTAssertEqual(limits.maxFeedBytes, 20 << 20)
        XCTAssertEqual(limits.maxCompressionRatio, 40)
        XCTAssertEqual(limits.maxLineBytes, 2 << 10)
        XCTAssertEqual(limits.maxImportMemoryBytes, 300 << 20)
        XCTAssertThrowsError(try DaemonConfiguration.resolve(arguments: ["--gtfs-max-ratio", "0"], environment: home)) { error in
            XCTAssertTrue("\(error)".contains("GTFS compression ratio"), "\(error)")
        }
    }

    /// Issue 25: the import's source limits and free-space headroom, with docs/operations.md's
    /// defaults; a GTFS zip is held to the feed limit.
    func testImportSourceLimitsComeFromFlagsEnvironmentAndConfigFileWithDocumentedDefaults() throws {
        let defaults = try DaemonConfiguration.resolve(arguments: [], environment: home).importLimits
        XCTAssertEqual([defaults.osm.bytes, defaults.feed.bytes, defaults.minimumFreeBytes], [16384 << 20, 2048 << 20, 1024 << 20])
        XCTAssertEqual([defaults.osm.setting, defaults.feed.setting], ["osm_max_mb", "gtfs_max_feed_mb"])
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("usefulmapd.conf")
        try "min_free_mb = 300\n".write(to: file, atomically: true, encoding: .utf8)
        let limits = try DaemonConfiguration.resolve(
            arguments: ["--config", file.path, "--osm-max-mb", "10"],
            environment: home.merging(["USEFULMAP_GTFS_MAX_FEED_MB": "20"]) { $1 }).importLimits
        XCTAssertEqual([limits.osm.bytes, limits.feed.bytes, limits.minimumFreeBytes], [10 << 20, 20 << 20, 300 << 20])
        XCTAssertThrowsError(try DaemonConfiguration.resolve(arguments: ["--osm-max-mb", "0"], environment: home)) { error in
            XCTAssertTrue("\(error)".contains("OSM file limit"), "\(error)")
        }
    }

    /// Issue 22: how many days before a feed's last day the warnings start, 7 by default.
    func testExpiryWarningComesFromFlagEnvironmentAndConfigFileWithItsDocumentedDefault() throws {
        XCTAssertEqual(try DaemonConfiguration.resolve(arguments: [], environment: home).expiryWarningDays, 7)
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("usefulmapd.conf")
        try "expiry_warning = 14\n".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try DaemonConfiguration.resolve(arguments: ["--config", file.path], environment: home).expiryWarningDays, 14)
        XCTAssertEqual(try DaemonConfiguration.resolve(arguments: ["--config", file.path],
                                                       environment: home.merging(["USEFULMAP_EXPIRY_WARNING": "3"]) { $1 })
                        .expiryWarningDays, 3)
        XCTAssertEqual(try DaemonConfiguration.resolve(arguments: ["--config", file.path, "--expiry-warning", "0"],
                                                       environment: home).expiryWarningDays, 0, "0: only on the last day")
        for bad in ["-1", "366", "week"] {
            XCTAssertThrowsError(try DaemonConfiguration.resolve(arguments: ["--expiry-warning", bad], environment: home)) { error in
                XCTAssertEqual("\(error)", "invalid expiry warning \"\(bad)\": expected 0 to 365 days")
            }
        }
    }

    /// Issue 42: the web map's square cache, 256 MiB unless the flag or config key says otherwise.
    func testTileCacheSizeComesFromFlagEnvironmentAndConfigFileWithItsDocumentedDefault() throws {
        XCTAssertEqual(try DaemonConfiguration.resolve(arguments: [], environment: home).tileCacheBytes, 256 << 20)
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("usefulmapd.conf")
        try "tile_cache_mb = 64\n".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try DaemonConfiguration.resolve(arguments: ["--config", file.path], environment: home).tileCacheBytes, 64 << 20)
        XCTAssertEqual(try DaemonConfiguration.resolve(arguments: ["--config", file.path, "--tile-cache-mb", "2"], environment: home)
                        .tileCacheBytes, 2 << 20)
        XCTAssertEqual(try DaemonConfiguration.resolve(arguments: [], environment: home.merging(["USEFULMAP_TILE_CACHE_MB": "8"]) { $1 })
                        .tileCacheBytes, 8 << 20)
        for bad in ["0", "-5", "lots"] {
            XCTAssertThrowsError(try DaemonConfiguration.resolve(arguments: ["--tile-cache-mb", bad], environment: home)) { error in
                XCTAssertEqual("\(error)", "invalid tile cache size \"\(bad)\": expected a whole number ≥ 1")
            }
        }
    }

    func testMissingExplicitConfigFileIsAnError() {
        XCTAssertThrowsError(try DaemonConfiguration.resolve(arguments: ["--config", "/nonexistent/x.conf"], environment: home))
    }

    /// Issue 24: the car's cost per km, two words on the command line, one value elsewhere; none by default.
    func testCarCostPerKmTakesAnAmountAndAnISOCurrency() throws {
        XCTAssertNil(try DaemonConfiguration.resolve(arguments: [], environment: home).carCost)
        let flag = try DaemonConfiguration.resolve(arguments: ["--car-cost-per-km", "0.25", "EUR"], environment: home).carCost
        XCTAssertEqual(flag?.perKilometre, Money(amount: Decimal(string: "0.25")!, currency: "EUR"))
        let environment = try DaemonConfiguration.resolve(arguments: [], environment: home.merging(["USEFULMAP_CAR_COST_PER_KM": "0.3 SEK"]) { $1 })
        XCTAssertEqual(environment.carCost?.perKilometre.currency, "SEK")
        for bad in [["0.25", "XYZ"], ["-1", "EUR"], ["cheap", "EUR"], ["0.25", "eur"]] {
            XCTAssertThrowsError(try DaemonConfiguration.resolve(arguments: ["--car-cost-per-km"] + bad, environment: home)) { error in
                XCTAssertEqual("\(error)", "invalid car cost per km \"\(bad.joined(separator: " "))\": expected an amount ≥ 0 and an ISO 4217 currency, e.g. 0.25 EUR")
            }
        }
    }

    /// Issue 43: how far apart the ends of a compare may be for its walk and bike to be asked, in km.
    func testCompareDistanceLimitsAreReadInKilometres() throws {
        XCTAssertEqual(try DaemonConfiguration.resolve(arguments: [], environment: home).comparedDistanceLimits,
                       [.walk: 30_000, .bike: 100_000])
        let set = try DaemonConfiguration.resolve(arguments: ["--compare-walk-limit-km", "12.5"],
                                                  environment: home.merging(["USEFULMAP_COMPARE_BIKE_LIMIT_KM": "60"]) { $1 })
        XCTAssertEqual(set.comparedDistanceLimits, [.walk: 12_500, .bike: 60_000])
        XCTAssertThrowsError(try DaemonConfiguration.resolve(arguments: ["--compare-bike-limit-km", "far"], environment: home)) { error in
            XCTAssertEqual("\(error)", "invalid compare bike limit \"far\": expected 1 to 20000 km")
        }
    }

    /// Issue 44: redirects to another host or port are refused unless this switch is on.
    func testCrossHostRedirectsAreOffUnlessTheSwitchFlagEnvironmentOrConfigKeyTurnsThemOn() throws {
        XCTAssertFalse(try DaemonConfiguration.resolve(arguments: [], environment: home).allowCrossHostRedirects)
        XCTAssertTrue(try DaemonConfiguration.resolve(arguments: ["--allow-cross-host-redirects"], environment: home)
                        .allowCrossHostRedirects, "the flag alone means on")
        let then = try DaemonConfiguration.resolve(arguments: ["--allow-cross-host-redirects", "--log-level", "debug"], environment: home)
        XCTAssertTrue(then.allowCrossHostRedirects)
        XCTAssertEqual(then.logLevel, .debug, "the next flag is not taken as its value")
        XCTAssertFalse(try DaemonConfiguration.resolve(arguments: ["--allow-cross-host-redirects", "off"], environment: home)
                        .allowCrossHostRedirects)
        XCTAssertTrue(try DaemonConfiguration.resolve(arguments: [], environment: home.merging(["USEFULMAP_ALLOW_CROSS_HOST_REDIRECTS": "on"]) { $1 })
                        .allowCrossHostRedirects)
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("usefulmapd.conf")
        try "allow_cross_host_redirects = on\n".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertTrue(try DaemonConfiguration.resolve(arguments: ["--config", file.path], environment: home).allowCrossHostRedirects)
        XCTAssertFalse(try DaemonConfiguration.resolve(arguments: ["--config", file.path, "--allow-cross-host-redirects=off"],
                                                       environment: home).allowCrossHostRedirects)
        XCTAssertThrowsError(try DaemonConfiguration.resolve(arguments: ["--allow-cross-host-redirects=maybe"], environment: home)) { error in
            XCTAssertEqual("\(error)", "invalid allow cross-host redirects \"maybe\": expected on or off")
        }
    }
}
