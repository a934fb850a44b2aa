import Dispatch
import Foundation
import Glibc
import Planner
import Store
import Synchronization
import WireProtocol

/// The composition root: chooses the concrete store, routers and clock, wires them into the
/// method groups, serves the socket until SIGTERM/SIGINT, and shuts down cleanly.
///
/// ```swift
/// let code = await UsefulMapDaemon(configuration: configuration, environment: env, logger: logger).run()
/// ```
public struct UsefulMapDaemon: Sendable {
    public let configuration: DaemonConfiguration
    public let environment: [String: String]
    public let logger: DaemonLogger

    public init(configuration: DaemonConfiguration, environment: [String: String], logger: DaemonLogger) {
        self.configuration = configuration
        self.environment = environment
        self.logger = logger
    }

    /// Runs until a signal; returns the process exit code (0 after a clean shutdown).
    public func run() async -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        StandardDescriptors.keepCreatedFilesPrivate()
        DescriptorBudget.raiseSoftLimit() // systemd's default soft limit is 1,024; the hard one is much higher
        MemoryTrim.keepFreedMemoryFromPilingUp()
        let signals = SignalWaiter(signals: [SIGTERM, SIGINT])
        do {
            try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            logger.error("cannot create the data directory", ["path": configuration.dataDirectory, "error": "\(error)"])
            return 1
        }

        let listener: Int32
        let activated: Bool
        if let fd = ListeningSocket.activated(environment: environment) {
            listener = fd
            activated = true
        } else {
            do {
                listener = try ListeningSocket.bind(path: configuration.socketPath, logger: logger)
                activated = false
            } catch {
                logger.error("\(error)", ["socket": configuration.socketPath])
                return 1
            }
        }

        // After the socket: a second daemon is refused before it touches the database, or the
        // copies a running import reads.
        PassedImportSources.removeLeftovers(under: URL(fileURLWithPath: configuration.dataDirectory))
        PrivateDataFiles.tidy(dataDirectory: URL(fileURLWithPath: configuration.dataDirectory), logger: logger)
        let database = WeakStore()
        guard await serve(database: database, listener: listener, activated: activated, signals: signals) else {
            close(listener)
            if !activated { unlink(configuration.socketPath) }
            return 1
        }
        // Everything that used the store is gone now, so its connections are closed (SQLite
        // checkpoints the WAL). Anything still holding it is a bug worth a log line.
        if database.store == nil {
            logger.info("database closed", ["path": configuration.databasePath])
        } else {
            logger.warning("database still referenced at exit", ["path": configuration.databasePath])
        }
        if !activated { unlink(configuration.socketPath) }
        logger.notice("stopped")
        return 0
    }

    /// Opens the store, wires the method groups, serves until a signal, and shuts the server down.
    /// Returns false when the database cannot be opened. Every strong reference to the store
    /// lives in this scope, so the store is closed when it returns.
    private func serve(database: WeakStore, listener: Int32, activated: Bool, signals: SignalWaiter) async -> Bool {
        let store: Store
        do {
            // Opening checks and migrates the file: on a thread of its own, off the cooperative pool.
            store = try await CPUWorkPool.blocking.run { [path = configuration.databasePath] in
                try Store(path: path, threadNice: HeavyWorkPriority.current.nice)
            }
        } catch {
            logger.error("cannot open the database", ["path": configuration.databasePath, "error": "\(error)"])
            return false
        }
        database.store = store
        let streets = StreetEngine(dataDirectory: URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true),
                                   workers: configuration.streetWorkers, carCost: configuration.carCost,
                                   workerNice: HeavyWorkPriority.current.nice)
        let clock: any WallClock = configuration.clockStart.map { StartedClock(start: $0) } ?? SystemClock()
        let live = LiveFeedBoard(clock: clock)
        let composition = DaemonComposition(
            configuration: configuration, store: store, streets: streets,
            transit: TransitEngine(maxTransfers: configuration.maxTransfers,
                                   transferPenalty: configuration.transferPenalty, live: live),
            // Timing footpaths keeps every worker busy: more workers than cores would only
            // find the same stops' waypoints again in each.
            transitImportStep: { [configuration] in
                TransitEngine.importStep(feeds: $0, walkWorkers: min(configuration.streetWorkers, ProcessInfo.processInfo.activeProcessorCount),
                                         limits: configuration.gtfsLimits)
            },
            clock: clock, live: live, logger: logger)
        // Before serving, so the warnings of a start are logged by the time it answers (a watcher
        // connects later and sees the next day's).
        await composition.expiry.check()
        let dispatcher = RequestDispatcher(table: composition.table, counters: composition.counters, logger: logger)
        // The web app, when asked for: one more client of the same method table and events.
        var gateway: WebGateway?
        if let address = configuration.http {
            do {
                gateway = try WebGateway(address: address, socketPath: configuration.socketPath,
                                         dataDirectory: URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true),
                                         dispatcher: dispatcher, events: composition.events, regions: composition.regions,
                                         tileCacheBytes: configuration.tileCacheBytes, logger: logger)
            } catch {
                logger.error("\(error)", ["http": address.description])
                composition.regions.closeAll()
                return false
            }
        }
        let server = DaemonServer(listener: listener, dispatcher: dispatcher, logger: logger,
                                  limits: configuration.connectionLimits, grace: configuration.shutdownGraceSeconds)
        // Started in dependency order, cancelled in reverse on SIGTERM/SIGINT (DaemonServices).
        let held = HeldComposition(composition)
        let services = ServiceGroup(DaemonServices.inOrder(held, server: server, gateway: gateway), logger: logger)
        let notifier = SystemdNotifier(environment: environment)
        await services.run { [configuration, logger, activated] in
            notifier.notify("READY=1\nSTATUS=serving on \(activated ? "an activated socket" : configuration.socketPath)")
            logger.notice("usefulmapd ready", ["socket": configuration.socketPath, "data_dir": configuration.dataDirectory,
                                               "activated": String(activated), "version": ProtocolVersion.softwareVersion,
                                               "open_file_limit": String(DescriptorBudget().limit)])
            let received = await signals.next()
            logger.notice("stopping", ["signal": received == SIGTERM ? "SIGTERM" : "SIGINT"])
            notifier.notify("STOPPING=1")
        }
        withExtendedLifetime(held) {} // the one-off tasks hold it weakly: it must outlive them
        composition.regions.closeAll()
        return true
    }
}

extension UsefulMapDaemon {
    public static var version: String { ProtocolVersion.softwareVersion }
}

/// The composition, for tasks that must reach it without keeping it alive.
final class HeldComposition: Sendable {
    let composition: DaemonComposition
    init(_ composition: DaemonComposition) { self.composition = composition }
}

/// Lets `run` see whether the store was released (and so closed) after serving.
final class WeakStore: Sendable {
    private struct Held { weak var store: Store? }
    private let held = Mutex(Held())

    var store: Store? {
        get { held.withLock { $0.store } }
        set { held.withLock { $0.store = newValue } }
    }
}
