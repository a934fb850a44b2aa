import Foundation
import WireProtocol
import XCTest

/// A private session bus made by `dbus-run-session` (Debian `dbus-daemon`), optionally with
/// python3-dbusmock's `notification_daemon` template owning org.freedesktop.Notifications.
/// The daemon under test gets `address` as its DBUS_SESSION_BUS_ADDRESS.
final class NotificationServer {
    let address: String
    private let session = Process()
    private let childPID: pid_t

    static let python = "/usr/bin/python3"

    /// - parameter mock: false: a bus where nobody owns the Notifications name.
    init(in directory: URL, mock: Bool = true) throws {
        let probe = try DaemonHarness.run(Self.python, ["-c", "import dbusmock, dbus"], in: directory)
        guard probe.status == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-run-session") else {
            throw XCTSkip("needs Debian's dbus-daemon and python3-dbusmock: \(probe.stderr)")
        }
        let folder = directory.appendingPathComponent("bus-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let addressFile = folder.appendingPathComponent("address"), pidFile = folder.appendingPathComponent("pid")
        let server = mock ? "exec \(Self.python) -m dbusmock --template notification_daemon" : "exec sleep 3600"
        session.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-run-session")
        session.arguments = ["--", "/bin/sh", "-c",
                             "echo \"$DBUS_SESSION_BUS_ADDRESS\" > '\(addressFile.path)'; echo $$ > '\(pidFile.path)'; \(server)"]
        session.standardOutput = FileHandle.nullDevice
        session.standardError = FileHandle.nullDevice
        try session.run()
        var address = "", pid: pid_t = 0
        for _ in 0..<400 where address.isEmpty || pid == 0 {
            usleep(25_000)
            address = ((try? String(contentsOf: addressFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            pid = pid_t(((try? String(contentsOf: pidFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        guard !address.isEmpty, pid > 0 else { throw HarnessError("dbus-run-session did not start") }
        self.address = address
        childPID = pid
        if mock {
            for _ in 0..<400 {
                if (try? query("print(bus.name_has_owner('org.freedesktop.Notifications'))")) == "True" { return }
                usleep(50_000)
            }
            throw HarnessError("dbusmock did not take org.freedesktop.Notifications")
        }
    }

    deinit { stop() }

    func stop() {
        guard session.isRunning else { return }
        kill(childPID, SIGTERM)
        session.waitUntilExit()
    }

    /// Runs `code` in Python with `bus` (this bus) and `mock` (the mock's object) and returns what it printed.
    @discardableResult
    func query(_ code: String) throws -> String {
        let script = """
        import dbus, json, sys
        bus = dbus.bus.BusConnection(sys.argv[1])
        def mock():
            return dbus.Interface(bus.get_object('org.freedesktop.Notifications', '/org/freedesktop/Notifications'),
                                  'org.freedesktop.DBus.Mock')
        \(code)
        """
        let result = try DaemonHarness.run(Self.python, ["-c", script, address], in: URL(fileURLWithPath: "/tmp"))
        guard result.status == 0 else { throw HarnessError("python dbus: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One `Notify` the mock received.
    struct Notify: Equatable {
        var appName: String
        var replacesID: Int
        var summary: String
        var body: String
        var actions: [String]
    }

    /// Every `Notify` so far, oldest first (the mock's `GetCalls`).
    func notifications() throws -> [Notify] {
        let text = try query("""
        print(json.dumps([[str(a) if isinstance(a, dbus.String) else (list(map(str, a)) if isinstance(a, dbus.Array) else (int(a) if isinstance(a, (dbus.UInt32, dbus.Int32)) else None)) for a in args] for (_, name, args) in mock().GetCalls() if name == 'Notify']))
        """)
        let calls = try JSONParser.parse(Data(text.utf8)).arrayValue ?? []
        return calls.compactMap { call -> Notify? in
            guard let a = call.arrayValue, a.count >= 6 else { return nil }
            return Notify(appName: a[0].stringValue ?? "", replacesID: Int(a[1].numberValue ?? -1), summary: a[3].stringValue ?? "",
                          body: a[4].stringValue ?? "", actions: a[5].arrayValue?.compactMap(\.stringValue) ?? [])
        }
    }

    /// Waits (bounded) until `done` holds for the notifications so far, then returns them.
    func notifications(until done: ([Notify]) -> Bool, seconds: Double = 60) throws -> [Notify] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let seen = try notifications()
            if done(seen) { return seen }
            usleep(200_000)
        }
        return try notifications()
    }

    /// The user pressed the button `action` of notification `id`.
    func invoke(_ action: String, on id: Int) throws {
        try query("mock().EmitSignal('org.freedesktop.Notifications', 'ActionInvoked', 'us', [dbus.UInt32(\(id)), '\(action)'])")
    }
}
