import Foundation
import Synchronization
import WireProtocol

/// The web app's logins: the secret `umctl web` signs tokens with, the tokens already taken
/// (each logs in once), and the sessions the logins opened (the cookie's value).
final class WebSessions: Sendable {
    let secret: String
    private struct State {
        var usedNonces: [String: Int] = [:]
        var sessions: Set<String> = []
        var order: [String] = []
    }
    private let state = Mutex(State())
    /// Sessions kept at most; logging in past it ends the oldest.
    static let maxSessions = 64

    init(secret: String = WebLogin.newSecret()) {
        self.secret = secret
    }

    /// A new session for a token signed with the secret, recent and not used before; nil otherwise.
    func logIn(token: String, now: Int) -> String? {
        guard let nonce = WebLogin.verifiedNonce(token, secret: secret, now: now) else { return nil }
        return state.withLock { state -> String? in
            // Nonces older than a token's lifetime can go: their tokens are refused by time anyway.
            state.usedNonces = state.usedNonces.filter { now - $0.value <= WebLogin.lifetime + 10 }
            guard state.usedNonces[nonce] == nil else { return nil }
            state.usedNonces[nonce] = now
            let session = WebLogin.newSecret()
            state.sessions.insert(session)
            state.order.append(session)
            if state.order.count > Self.maxSessions { state.sessions.remove(state.order.removeFirst()) }
            return session
        }
    }

    func isOpen(_ session: String?) -> Bool {
        guard let session else { return false }
        return state.withLock { $0.sessions.contains(session) }
    }
}
