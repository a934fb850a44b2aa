import Foundation
import Glibc
import XCTest

/// Issue 25: `systemd/usefulmapd.{socket,service}` as they are, under a real `systemd --user`
/// manager: socket activation, readiness, the sandbox in force as the running daemon sees it,
/// and a clean stop. Skipped (saying why) only where no manager can run: not root, no systemd,
/// or a read-only cgroup file system.
final class ServiceUnderUserManagerTests: XCTestCase {
    private var manager: SystemdUserManager!

    override func setUpWithError() throws {
        continueAfterFailure = false // a client of a service that failed to start would wait for ever
        manager = try SystemdUserManager(
            units: ["usefulmapd.socket", "usefulmapd.service"].map { ServiceSandboxTests.units.appendingPathComponent($0) },
            binaries: [DaemonHarness.usefulmapd, DaemonHarness.umctl,
                       DaemonHarness.binaries.appendingPathComponent("usefulmap-routino-worker").path])
    }

    override func tearDown() {
        manager?.stop()
        manager = nil
    }

    private var socketPath: String { manager.runtimeDirectory.appendingPathComponent("usefulmap/usefulmapd.sock").path }
    private var dataFolder: URL { manager.home.appendingPathComponent(".local/share/usefulmap", isDirectory: true) }

    private func umctl(_ arguments: [String]) throws -> DaemonHarness.CommandResult {
        try DaemonHarness.run(DaemonHarness.umctl, arguments + ["--socket", socketPath], in: manager.home)
    }

    /// The first `umctl status`, which starts the service. A client of a socket whose service
    /// fails to start waits for ever (the manager keeps restarting it), so it is given up as
    /// soon as the service has failed once.
    private func firstStatus() throws -> DaemonHarness.CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonHarness.umctl)
        process.arguments = ["status", "--socket", socketPath]
        let out = manager.home.appendingPathComponent("first-status.out"), err = manager.home.appendingPathComponent("first-status.err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var failure = ""
        while process.isRunning {
            let result = try manager.property("Result", of: "usefulmapd.service")
            let restarts = try manager.property("NRestarts", of: "usefulmapd.service")
            if result != "success" || restarts != "0" {
                failure = "usefulmapd.service failed to start (Result=\(result)); umctl gave up\n"
                process.terminate()
            }
            usleep(50_000)
        }
        process.waitUntilExit()
        return DaemonHarness.CommandResult(status: process.terminationStatus,
                                           stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                                           stderr: failure + ((try? String(contentsOf: err, encoding: .utf8)) ?? ""))
    }

    /// What went on, for a failure's message.
    private var said: String { "journal:\n\(manager.journal)\nmanager (last lines):\n\(manager.log.split(separator: "\n").suffix(60).joined(separator: "\n"))" }

    /// Starts the socket and makes the first connection, which starts the service.
    private func startThroughTheSocket() throws -> Int32 {
        let started = try manager.systemctl(["start", "usefulmapd.socket"])
        XCTAssertEqual(started.status, 0, started.stderr)
        XCTAssertEqual(try manager.property("ActiveState", of: "usefulmapd.service"), "inactive", "nothing starts it before a client comes")
        let status = try firstStatus()
        XCTAssertEqual(status.status, 0, "umctl status through the activated socket: \(status.stderr)\n\(said)")
        XCTAssertTrue(status.stdout.contains("socket:    \(socketPath)"), status.stdout)
        XCTAssertTrue(status.stdout.contains(dataFolder.appendingPathComponent("usefulmap.sqlite").path), status.stdout)
        XCTAssertEqual(try manager.property("SubState", of: "usefulmapd.service"), "running")
        XCTAssertEqual(try manager.property("StatusText", of: "usefulmapd.service"), "serving on an activated socket",
                       "Type=notify: READY=1 and the status line reached the manager")
        return try XCTUnwrap(Int32(manager.property("MainPID", of: "usefulmapd.service")))
    }

    /// The unit's data folder did not exist before the first start in a new home; the old unit's
    /// `ReadWritePaths=` (without `-`) made even the `+` mkdir fail with 226/NAMESPACE.
    func testTheSocketStartsTheServiceInAHomeWithoutItsDataFolderAndStopEndsItCleanly() throws {
        XCTAssertFalse(FileManager.default.fileExists(atPath: dataFolder.path))
        _ = try startThroughTheSocket()
        XCTAssertEqual(try manager.property("NRestarts", of: "usefulmapd.service"), "0", said)

        // It writes its data folder and runs planetsplitter and its Routino workers in the sandbox.
        var region = SmallRegion(name: "tokyo", latitude: 35.6812, longitude: 139.7671)
        region.size = 3
        let osm = try region.writeOSM(in: manager.home)
        let imported = try umctl(["region", "import", "tokyo", "--osm", osm.path])
        XCTAssertEqual(imported.status, 0, "\(imported.stderr)\n\(said)")
        let walked = try umctl(["compare", region.southWest, region.northEast, "--at", "2026-03-04T07:50"])
        XCTAssertEqual(walked.status, 0, "\(walked.stderr)\n\(said)")
        XCTAssertTrue(walked.stdout.contains("walk"), walked.stdout)

        let stopped = try manager.systemctl(["stop", "usefulmapd.service"])
        XCTAssertEqual(stopped.status, 0, stopped.stderr)
        XCTAssertEqual(try manager.property("Result", of: "usefulmapd.service"), "success", said)
        XCTAssertEqual(try manager.property("ExecMainCode", of: "usefulmapd.service"), String(CLD_EXITED), said)
        XCTAssertEqual(try manager.property("ExecMainStatus", of: "usefulmapd.service"), "0", said)
        XCTAssertEqual(try manager.property("ActiveState", of: "usefulmapd.socket"), "active", "the socket stays for the next client")
    }

    /// What the unit asks for, seen from the running daemon: its /proc status, its mounts, what it
    /// can write and see, and that gpsd over IP is refused by `RestrictAddressFamilies=AF_UNIX`.
    func testTheSandboxDirectivesAreInForceInTheRunningService() throws {
        let config = manager.home.appendingPathComponent(".config/usefulmap/usefulmapd.conf")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("gpsd = 127.0.0.1:1\nstreet_workers = 1\n".utf8).write(to: config)
        let pid = try startThroughTheSocket()

        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func field(_ name: String) -> String? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }.map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
        }
        XCTAssertEqual(field("NoNewPrivs"), "1", "NoNewPrivileges=yes")
        XCTAssertEqual(field("Seccomp"), "2", "SystemCallFilter= and friends load a seccomp filter")
        XCTAssertEqual(field("CapBnd"), "0000000000000000", "CapabilityBoundingSet= (empty)")
        XCTAssertEqual(field("CapEff"), "0000000000000000")
        XCTAssertEqual(field("CapAmb"), "0000000000000000", "AmbientCapabilities= (empty)")
        XCTAssertEqual(field("Umask"), "0077", "UMask=0077")
        for space in ["user", "mnt", "uts"] {
            XCTAssertNotEqual(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/\(space)"),
                              try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/\(space)"),
                              "PrivateUsers=, the file-system options and ProtectHostname= give it its own \(space) namespace")
        }

        // Its mounts: proc invisible for others' processes, kernel tunables and cgroups read-only.
        let mounts = try String(contentsOfFile: "/proc/\(pid)/mountinfo", encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: " ").map(String.init)
        }
        func mount(at point: String) -> [String]? { mounts.last { $0.count > 5 && $0[4] == point } }
        XCTAssertTrue(mount(at: "/proc")?.last?.contains("hidepid=invisible") == true, "ProtectProc=invisible: \(mount(at: "/proc") ?? [])")
        XCTAssertTrue(mount(at: "/proc/sys")?[5].hasPrefix("ro") == true, "ProtectKernelTunables=yes")
        XCTAssertTrue(mount(at: "/sys/fs/cgroup")?[5].hasPrefix("ro") == true, "ProtectControlGroups=yes")
        XCTAssertTrue(mount(at: "/")?[5].hasPrefix("ro") == true, "ProtectSystem=strict")
        XCTAssertTrue(mount(at: dataFolder.path)?[5].hasPrefix("rw") == true, "ReadWritePaths=")

        // From inside: only the data folder can be written; its own /tmp; few devices.
        let probe = "usefulmap-unit-probe-\(getpid())"
        let hostTmp = URL(fileURLWithPath: "/tmp/\(probe)")
        try Data().write(to: hostTmp)
        defer {
            try? FileManager.default.removeItem(at: hostTmp)
            try? FileManager.default.removeItem(atPath: "/var/\(probe)")
        }
        let home = try manager.inside(pid, ["/usr/bin/touch", manager.home.appendingPathComponent(probe).path])
        XCTAssertNotEqual(home.status, 0, "ProtectHome=read-only")
        XCTAssertTrue(home.stderr.contains("Read-only file system"), home.stderr)
        XCTAssertNotEqual(try manager.inside(pid, ["/usr/bin/touch", "/var/\(probe)"]).status, 0, "ProtectSystem=strict")
        let data = try manager.inside(pid, ["/usr/bin/touch", dataFolder.appendingPathComponent(probe).path])
        XCTAssertEqual(data.status, 0, "ReadWritePaths=%h/.local/share/usefulmap: \(data.stderr)")
        XCTAssertNotEqual(try manager.inside(pid, ["/usr/bin/test", "-e", hostTmp.path]).status, 0, "PrivateTmp=yes")
        let devices = try manager.inside(pid, ["/usr/bin/ls", "/dev"])
        XCTAssertEqual(devices.status, 0, devices.stderr)
        let allowed: Set = ["char", "core", "fd", "full", "hugepages", "log", "mqueue", "null", "ptmx", "pts", "random", "shm",
                            "stderr", "stdin", "stdout", "tty", "urandom", "zero"]
        XCTAssertEqual(Set(devices.stdout.split(separator: "\n").map(String.init)).subtracting(allowed), [], "PrivateDevices=yes")

        // gpsd needs IP, which only the documented override allows.
        for _ in 0..<400 where !manager.journal.contains("IP sockets are not allowed here") { usleep(10_000) }
        XCTAssertTrue(manager.journal.contains("allow them for gpsd with RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6"), said)
    }
}
