import FoundationEssentials
import Glibc

extension WireClient {
    /// Refuses a socket served by another user before anything is sent: whoever could put a
    /// socket at this path (a folder they made, a predictable fallback) would otherwise read
    /// every request. The daemon's own user and root are trusted.
    /// - throws: `WireClientError.untrustedServer` (umctl exits 3 on it).
    static func checkServerIsTrusted(_ fd: Int32, path: String) throws {
        guard let peer = PeerCredentials.of(fd) else {
            throw WireClientError.cannotConnect(path: path, reason: "cannot read the server's credentials (SO_PEERCRED)")
        }
        let uid = geteuid()
        guard peer.isSameUserOrRoot(as: uid) else {
            throw WireClientError.untrustedServer(path: path, serverUID: peer.uid, clientUID: uid)
        }
    }
}
