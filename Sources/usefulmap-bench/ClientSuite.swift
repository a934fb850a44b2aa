import Foundation
import Glibc

/// `usefulmap-bench client [--runs=N] [--other-umctl=PATH,...] [--tampere | --socket=PATH] [--back-to-back]`: whole-process start-up of the
/// thin client as scripts, status bars and shell completions pay it (issue 26): `umctl status`
/// against a running daemon, `umctl --version`, and `/bin/true` for the floor, spawned in turn
/// in the same run so that the machine's load falls on all alike. Each is measured twice: the
/// wall clock from spawn to exit, and the CPU time the process used (user + system, from
/// `wait4`), which a shared machine's other work leaves out. With `--other-umctl`, other
/// umctl builds (an older one, a `--static-swift-stdlib` one) run in the same rounds, for a
/// before and after; with `--back-to-back`, each command's runs follow one another instead.
/// `status` is answered by a new daemon without regions, one with Tampere imported
/// (`--tampere`: a longer answer, as a user's), or one already running (`--socket`).
func runClientSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "client")
    let daemon = try BenchDaemon(existingSocket: benchOption("socket"), importTampere: benchFlag("tampere"))
    defer { daemon.stop() }
    let runs = benchOption("runs").flatMap { Int($0) } ?? 300
    let umctl = BenchDaemon.binaries.appendingPathComponent("umctl").path
    var commands: [(name: String, argv: [String])] = [
        ("umctl status", [umctl, "status", "--socket", daemon.socketPath]),
        ("umctl --version", [umctl, "--version"]),
        ("/bin/true", ["/bin/true"]),
    ]
    for (number, other) in (benchOption("other-umctl")?.split(separator: ",").map(String.init) ?? []).enumerated() {
        commands += [("umctl #\(number + 1) status", [other, "status", "--socket", daemon.socketPath]),
                     ("umctl #\(number + 1) --version", [other, "--version"])]
        report.notes["umctl #\(number + 1)"] = other
    }
    for command in commands { _ = try spawnAndWait(command.argv) } // warm the page cache
    var seconds = Array(repeating: [Double](), count: commands.count)
    var cpuSeconds = Array(repeating: [Double](), count: commands.count)
    func measure(_ index: Int) throws {
        let (cpu, wall) = try time { try spawnAndWait(commands[index].argv) }
        seconds[index].append(wall)
        cpuSeconds[index].append(cpu)
    }
    // In turn, the machine's load falls on all alike; back to back, each runs as a script's
    // loop or a status bar runs it, the caches warm with its own code only (on a quiet
    // machine the two orders differ, so a figure says which it is).
    let backToBack = benchFlag("back-to-back")
    if backToBack {
        for index in commands.indices {
            for _ in 0..<runs { try measure(index) }
        }
    } else {
        for _ in 0..<runs {
            for index in commands.indices { try measure(index) }
        }
    }
    for (index, command) in commands.enumerated() {
        report.addLatencies("\(command.name) (whole process)", seconds[index])
        report.addLatencies("\(command.name) (CPU, user + system)", cpuSeconds[index])
    }
    func median(_ values: [Double]) -> Double { percentile(values.sorted(), 0.5) }
    for (index, command) in commands.enumerated() where command.name.hasPrefix("umctl") {
        report.add("\(command.name) p50 / /bin/true p50", median(seconds[index]) / median(seconds[2]), unit: "×")
        report.add("\(command.name) CPU p50 / /bin/true CPU p50", median(cpuSeconds[index]) / median(cpuSeconds[2]), unit: "×")
    }
    report.notes["client"] = "\(umctl), spawned with posix_spawn, output to /dev/null, "
        + (backToBack ? "\(runs) runs of each command back to back" : "\(runs) rounds of the commands in turn")
    return report
}

/// Runs a program to its end with its output thrown away; fails unless it exits 0. Returns the
/// CPU seconds (user + system) it used.
func spawnAndWait(_ argv: [String]) throws -> Double {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
    var arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { arguments.forEach { free($0) } }
    var pid = pid_t()
    let failure = posix_spawn(&pid, argv[0], &actions, nil, &arguments, environ)
    guard failure == 0 else { throw BenchError("cannot start \(argv[0]): \(String(cString: strerror(failure)))") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    guard status == 0 else { throw BenchError("\(argv.joined(separator: " ")) exited with status \(status)") }
    func seconds(_ value: timeval) -> Double { Double(value.tv_sec) + Double(value.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
