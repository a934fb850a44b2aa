/// One notification for the freedesktop Notifications interface (`Notify`): what it says,
/// its buttons, and which earlier notification it takes the place of.
public struct DesktopNotification: Hashable, Sendable {
    /// A button: `key` comes back in `ActionInvoked`, `label` is what the user sees.
    public struct Action: Hashable, Sendable {
        public var key: String
        public var label: String

        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }
    }

    /// Shown as the sender: "Useful Map".
    public static let appName = "Useful Map"

    public var summary: String
    public var body: String
    public var actions: [Action]
    /// The server's ID of the notification this one replaces (0: a new one).
    public var replacesID: UInt32

    public init(summary: String, body: String, actions: [Action] = [], replacesID: UInt32 = 0) {
        self.summary = summary
        self.body = body
        self.actions = actions
        self.replacesID = replacesID
    }
}

/// What the notification server tells about a notification it showed.
public enum NotificationSignal: Hashable, Sendable {
    /// The user pressed the button whose key is `action`.
    case actionInvoked(id: UInt32, action: String)
    /// It went away (expired, dismissed, closed); `reason` as the specification numbers it.
    case closed(id: UInt32, reason: UInt32)
}

/// Why a notification was not shown. The daemon carries on either way.
public enum NotificationFailure: Error, Hashable, Sendable {
    /// No session bus to connect to (no `DBUS_SESSION_BUS_ADDRESS`, or its socket refused us).
    case noSessionBus(String)
    /// The bus answered but nobody owns `org.freedesktop.Notifications`, or its `Notify` failed.
    case notifyFailed(String)

    /// A stable code for logs: `no_session_bus` or `notify_failed`.
    public var code: String {
        switch self {
        case .noSessionBus: "no_session_bus"
        case .notifyFailed: "notify_failed"
        }
    }

    public var message: String {
        switch self {
        case .noSessionBus(let detail), .notifyFailed(let detail): detail
        }
    }
}
