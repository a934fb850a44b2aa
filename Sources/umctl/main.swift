import FoundationEssentials
import Glibc

// umctl: the thin client of usefulmapd. `umctl help` lists the commands.
exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
