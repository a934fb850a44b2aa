import Foundation
import Glibc
import XCTest

/// A real `systemd --user` manager (the installed systemd), run by root for a throw-away home,
/// so the unit files in `systemd/` can be started, socket-activated and stopped as a user's
/// manager would. Containers whose PID 1 is not systemd can still host one, given what PID 1
/// would have provided; the script below adds only that:
/// - its own cgroup in every hierarchy (else a manager in the root cgroup takes every process
///   of the machine into its `init.scope`), checked to hold nothing but the manager;
/// - a private mount namespace where `/run/systemd/system` says "booted with systemd" and
///   `/run/systemd/inaccessible/*` exist (PID 1 makes them; sandboxing mounts them over what a
///   unit may not see);
/// - stand-ins for the journal: the manager logs to `/dev/kmsg`, bound to a FIFO copied to
///   `manager.log`, and services' output reaches `journal.log` through a small
///   `/run/systemd/journal/stdout` server.
/// Nothing of the unit is changed: its files are copied as they are into `~/.config/systemd/user`.
final class SystemdUserManager {
    let home: URL
    let runtimeDirectory: URL
    private let manager: Process
    private let scratch: URL

    /// Why this machine cannot host a manager, or nil when it can try.
    static var unavailableReason: String? {
        if getuid() != 0 { return "needs root, to give the manager a cgroup and mount namespace of its own" }
        if !FileManager.default.isExecutableFile(atPath: systemd) { return "systemd is not installed (\(systemd))" }
        if !FileManager.default.isWritableFile(atPath: "/home") { return "needs a writable /home for the service's home" }
        return nil
    }

    static let systemd = "/lib/systemd/systemd"

    static let script = #"""
    set -eu
    H=$1
    fail() { echo "$*" >&2; exit 77; }
    # The cgroup: a child of ours in each hierarchy (not cpuset, which needs cpus and mems set first).
    base=$(awk -F: '$2 == "name=systemd" { print $3 }' /proc/self/cgroup)
    [ -n "$base" ] || base=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
    path=${base%/}/usefulmap-unit-test-$$
    echo "$path" > "$H/cgroup-path"
    awk '{ for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i+1) == "cgroup" || $(i+1) == "cgroup2") print $5; break } }' \
        /proc/self/mountinfo > "$H/cgroup-mounts"
    [ -s "$H/cgroup-mounts" ] || fail "no cgroup file system is mounted"
    while read -r mount; do
        case $mount in */cpuset) continue ;; esac
        mkdir -p "$mount$path" 2>/dev/null || fail "cannot make a cgroup in $mount (read-only cgroup file system?)"
        echo $$ > "$mount$path/cgroup.procs" 2>/dev/null || fail "cannot move into a cgroup of $mount"
        mapfile -t members < "$mount$path/cgroup.procs" # a builtin: no child process joins the count
        [ "${members[*]}" = "$$" ] || fail "the new cgroup in $mount holds other processes: ${members[*]}"
    done < "$H/cgroup-mounts"
    exec env -i HOME="$H" USER=root LOGNAME=root SHELL=/bin/sh PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
        XDG_RUNTIME_DIR="$H/run" XDG_CONFIG_HOME="$H/.config" XDG_DATA_HOME="$H/.local/share" \
        unshare --mount --propagation private /bin/sh -euc '
    H=$HOME
    mount -t tmpfs -o mode=755 tmpfs /run/systemd || { echo "cannot mount in a new mount namespace" >&2; exit 77; }
    mkdir /run/systemd/system /run/systemd/journal
    I=/run/systemd/inaccessible
    mkdir -m 755 $I; mkdir -m 0 $I/dir; touch $I/reg; chmod 0 $I/reg; mkfifo -m 0 $I/fifo
    mknod -m 0 $I/chr c 0 0; mknod -m 0 $I/blk b 0 0
    python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" $I/sock; chmod 0 $I/sock
    python3 -c "$0" /run/systemd/journal/stdout "$H/journal.log" &
    mkfifo "$H/kmsg"; cat "$H/kmsg" > "$H/manager.log" &
    mount --bind "$H/kmsg" /dev/kmsg
    while [ ! -S /run/systemd/journal/stdout ]; do sleep 0.05; done
    exec '"\#(systemd)"' --user --log-target=kmsg --log-level=debug
    ' "$2"
    """#

    /// What journald would do with a service's standard output: after the stream's header of
    /// seven lines, everything goes to one file.
    static let journalStdout = #"""
    import socket, sys, threading
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(sys.argv[1])
    server.listen(16)
    log = open(sys.argv[2], "ab", buffering=0)
    def serve(connection):
        header = b""
        with connection:
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                if header is not None:
                    header += chunk
                    if header.count(b"\n") < 7:
                        continue
                    chunk, header = header.split(b"\n", 7)[7], None
                log.write(chunk)
    while True:
        connection, _ = server.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()
    """#

    /// Starts a manager for a new home under `/home`, with `units` copied into its user unit
    /// folder and `binaries` into `~/.local/bin`. Throws `XCTSkip` when the machine cannot host it.
    init(units: [URL], binaries: [String]) throws {
        if let reason = Self.unavailableReason { throw XCTSkip(reason) }
        var template = Array("/home/usefulmap-unit-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp under /home failed") }
        home = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        runtimeDirectory = home.appendingPathComponent("run", isDirectory: true)
        scratch = home.appendingPathComponent(".test", isDirectory: true)
        let files = FileManager.default
        try files.createDirectory(at: scratch, withIntermediateDirectories: true)
        try files.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let unitFolder = home.appendingPathComponent(".config/systemd/user", isDirectory: true)
        let binFolder = home.appendingPathComponent(".local/bin", isDirectory: true)
        try files.createDirectory(at: unitFolder, withIntermediateDirectories: true)
        try files.createDirectory(at: binFolder, withIntermediateDirectories: true)
        for unit in units { try files.copyItem(at: unit, to: unitFolder.appendingPathComponent(unit.lastPathComponent)) }
        // Copies, not links: the build folder may be under /tmp, which PrivateTmp= hides.
        for binary in binaries {
            try files.copyItem(atPath: binary, toPath: binFolder.appendingPathComponent((binary as NSString).lastPathComponent).path)
        }
        let scriptFile = scratch.appendingPathComponent("manager.sh")
        try Data(Self.script.utf8).write(to: scriptFile)
        manager = Process()
        manager.executableURL = URL(fileURLWithPath: "/bin/bash")
        manager.arguments = [scriptFile.path, home.path, Self.journalStdout]
        let errors = scratch.appendingPathComponent("manager.stderr")
        _ = files.createFile(atPath: errors.path, contents: nil)
        manager.standardError = try FileHandle(forWritingTo: errors)
        manager.standardOutput = manager.standardError
        manager.standardInput = FileHandle.nullDevice
        try manager.run()
        let deadline = Date().addingTimeInterval(60)
        while manager.isRunning, !["running\n", "degraded\n"].contains(try? systemctl(["show", "--property=SystemState", "--value"]).stdout) {
            if Date() > deadline {
                let said = log
                stop()
                throw HarnessError("the user manager started but did not finish starting in 60 s:\n\(said)")
            }
            usleep(50_000)
        }
        if !manager.isRunning {
            let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            let reason = "a systemd user manager cannot run here (exit \(manager.terminationStatus)): \(said)\n\(log)"
            cleanUp()
            throw XCTSkip(reason)
        }
    }

    /// The manager's own log (debug level): units started, sandbox set up, failures.
    var log: String { (try? String(contentsOf: home.appendingPathComponent("manager.log"), encoding: .utf8)) ?? "" }
    /// What the services wrote to standard output and error.
    var journal: String { (try? String(contentsOf: home.appendingPathComponent("journal.log"), encoding: .utf8)) ?? "" }

    /// `systemctl --user ARGUMENTS` against this manager.
    @discardableResult
    func systemctl(_ arguments: [String]) throws -> DaemonHarness.CommandResult {
        try DaemonHarness.run("/usr/bin/systemctl", ["--user"] + arguments, in: scratch,
                              environment: ["HOME": home.path, "XDG_RUNTIME_DIR": runtimeDirectory.path, "PATH": "/usr/bin:/bin",
                                            "SYSTEMD_PAGER": "", "LANG": "C.UTF-8"])
    }

    /// One property of a unit, as `systemctl show` gives it.
    func property(_ name: String, of unit: String) throws -> String {
        try systemctl(["show", "--property=\(name)", "--value", unit]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a command in `pid`'s user and mount namespaces: the file system as that process sees it.
    func inside(_ pid: Int32, _ command: [String]) throws -> DaemonHarness.CommandResult {
        try DaemonHarness.run("/usr/bin/nsenter", ["--target", String(pid), "--user", "--mount", "--preserve-credentials"] + command,
                              in: scratch)
    }

    /// Stops the manager (which stops its units), then removes its cgroups and the home.
    func stop() {
        if manager.isRunning {
            kill(manager.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(30)
            while manager.isRunning, Date() < deadline { usleep(50_000) }
        }
        cleanUp()
    }

    private func cleanUp() {
        if let path = try? String(contentsOf: home.appendingPathComponent("cgroup-path"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines), path.hasPrefix("/"), path.count > 1,
           let mounts = try? String(contentsOf: home.appendingPathComponent("cgroup-mounts"), encoding: .utf8) {
            for mount in mounts.split(separator: "\n") { removeCgroup(String(mount) + path) }
        }
        if manager.isRunning { kill(manager.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: home)
    }

    /// Kills whatever is left in a cgroup tree (the journal stand-in, a unit the manager did not
    /// stop in time), then removes its folders, deepest first.
    private func removeCgroup(_ root: String) {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return }
        var folders = [root]
        while let entry = walker.nextObject() as? String {
            if (walker.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { folders.append(root + "/" + entry) }
        }
        for _ in 0..<100 {
            let left = folders.flatMap { folder in
                ((try? String(contentsOfFile: folder + "/cgroup.procs", encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
            }
            if left.isEmpty { break }
            for pid in left { kill(pid, SIGKILL) }
            usleep(20_000)
        }
        for folder in folders.sorted(by: { $0.count > $1.count }) { rmdir(folder) }
    }
}
