import Foundation
import Notifications
import Synchronization

/// Hands the notification server's signals (which come on the bus thread) to the
/// `ReminderService` made after the notifier that needs somewhere to send them. It holds the
/// service weakly: the service holds the notifier, which holds this.
final class SignalRelay: Sendable {
    private struct Target { // held by its `Mutex`, which makes it safe to share
        weak var service: ReminderService?
    }

    private let target = Mutex(Target())

    func send(to service: ReminderService) {
        target.withLock { $0.service = service }
    }

    func pass(_ signal: NotificationSignal) {
        guard let service = target.withLock({ $0.service }) else { return }
        Task { await service.handle(signal) }
    }
}
