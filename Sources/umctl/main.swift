import Glibc
import WireProtocol

// umctl: the thin client of usefulmapd. `umctl help` lists the commands.
// Only the variables umctl reads: `ProcessInfo.environment` copies all of them into a
// dictionary, which was a fifth of what `umctl --version` did.
let environment = [DefaultSocketPath.environmentVariable, "XDG_RUNTIME_DIR"].reduce(into: [String: String]()) { found, name in
    if let value = getenv(name) { found[name] = String(cString: value) }
}
// A synchronous main: `CommandLineTool.main` runs the command inline on this thread
// (`runToEnd`), so umctl starts none of Swift's executor threads, which an async main did
// (+1.1 ms CPU, docs/benchmarks-history.md).
exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst()), environment: environment))
