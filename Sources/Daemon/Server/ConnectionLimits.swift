import Foundation

/// What one client may cost the daemon; `docs/operations.md` explains each setting.
public struct ConnectionLimits: Hashable, Sendable {
    /// Open connections at most; the one over the limit gets `too_many_connections`.
    /// Each connection holds three descriptors and a thread, so the default stays well inside
    /// systemd's default limit of 1,024 open files.
    public var maxConnections = 256
    /// Seconds a connection may stay silent with nothing running before it is closed.
    public var idleTimeoutSeconds: Double = 300
    /// Requests read from one connection whose answers are not yet sent; reading stops there.
    public var maxInFlight = 16
    /// Bytes waiting to be sent to one client; past it a watcher loses its oldest events and
    /// any other client is disconnected.
    public var maxOutputBytes = 4 << 20
    /// Bytes of event notifications waiting to be sent to one watcher, within `maxOutputBytes`;
    /// past it the watcher loses its oldest events. Small, so that many watchers that stop
    /// reading cost little.
    public var maxEventBytes = 256 << 10

    public init() {}
}
