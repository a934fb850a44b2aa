import Foundation
import Notifications
import Synchronization

/// Hands the notification server's signals (which come on the bus thread) to the
/// `ReminderService` made after the notifier that needs somewhere to send them.
final class SignalRelay: Sendable {
    private let service = Mutex<ReminderService?>(nil)

    var target: ReminderService? {
        get { service.withLock { $0 } }
        set { service.withLock { $0 = newValue } }
    }

    func pass(_ signal: NotificationSignal) {
        guard let target else { return }
        Task { await target.handle(signal) }
    }
}
