import Daemon
import Foundation

// usefulmapd: the Useful Map daemon. Options and defaults: `usefulmapd --help`, docs/operations.md.
// First of all, before anything opens a file: closed descriptors 0-2 are held on /dev/null.
StandardDescriptors.holdOnDevNull()
// A reader that has gone (`usefulmapd 2>&1 | head`) must cost a write, not the process.
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(DaemonConfiguration.usage)
    exit(0)
}
if arguments == ["__man"] { // for `make install`
    print(DaemonManualPage.render(version: UsefulMapDaemon.version), terminator: "")
    exit(0)
}
if arguments.contains("--version") {
    print("usefulmapd \(UsefulMapDaemon.version)")
    exit(0)
}
let environment = ProcessInfo.processInfo.environment
let configuration: DaemonConfiguration
do {
    configuration = try DaemonConfiguration.resolve(arguments: arguments, environment: environment)
} catch {
    // One line naming what is wrong, and the usage line; the whole list is `--help`'s.
    DaemonLogger.writeToStandardError("usefulmapd: \(error)\n\(DaemonConfiguration.usageLine)\n")
    exit(2)
}
let logger = DaemonLogger(level: configuration.logLevel)
exit(await UsefulMapDaemon(configuration: configuration, environment: environment, logger: logger).run())
