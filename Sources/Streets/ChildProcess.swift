import CChildProcess
import Foundation
import Glibc

/// A child process (a Routino worker, planetsplitter) that cannot outlive the daemon: it is
/// started with a parent-death signal, SIGKILL when the thread that started it ends, which
/// covers the daemon being killed with SIGKILL. Its holder reaps it with `wait()` on every
/// path. Start it from a thread that lives at least as long as the child is wanted (an
/// import's thread, a pool's worker thread), never from a short-lived task.
///
/// ```swift
/// let child = try ChildProcess.start(executable: "/usr/bin/planetsplitter", arguments: ["--help"])
/// let ending = child.wait()   // .exited(0)
/// ```
struct ChildProcess {
    let pid: pid_t

    /// How a child ended.
    enum Ending: Equatable, CustomStringConvertible {
        case exited(Int32)
        case killed(signal: Int32)

        var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .killed(let signal): "was killed by signal \(signal)"
            }
        }
    }

    /// Starts `executable` with `arguments`, the daemon's environment, and the given
    /// descriptors as its standard input, output and error (nil keeps the daemon's).
    /// - throws: the errno text when it cannot be started (missing, not executable, no memory).
    static func start(executable: String, arguments: [String], standardInput: Int32? = nil, standardOutput: Int32? = nil,
                      standardError: Int32? = nil, directory: String? = nil) throws(ChildProcessError) -> ChildProcess {
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let pid = usefulmap_spawn_dying_with_parent(executable, &argv, &envp, standardInput ?? -1, standardOutput ?? -1,
                                                    standardError ?? -1, directory)
        guard pid > 0 else { throw ChildProcessError("cannot start \(executable): \(String(cString: strerror(errno)))") }
        return ChildProcess(pid: pid)
    }

    /// A pipe for a child's output, close-on-exec from the start so that no other child started
    /// meanwhile inherits it (which would hold the reading end open past this child's exit).
    static func makePipe() throws(ChildProcessError) -> (reading: Int32, writing: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe2(&ends, O_CLOEXEC) == 0 else {
            throw ChildProcessError("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        return (ends[0], ends[1])
    }

    /// Waits until the child ends and reaps it.
    @discardableResult
    func wait() -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .exited(-1) } // already reaped: nothing left to wait for
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .killed(signal: signal)
    }

    /// Kills the child with SIGKILL and reaps it.
    func kill() {
        Glibc.kill(pid, SIGKILL)
        wait()
    }
}

/// A child process (or its output pipe) that could not be made, with the system's reason.
struct ChildProcessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
