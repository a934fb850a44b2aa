import FoundationEssentials
import Glibc

/// Who is on the other end of a Unix socket (`SO_PEERCRED`). The daemon checks its clients and
/// `umctl` checks the daemon, with one rule: the same user, or root.
public struct PeerCredentials: Hashable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public static func of(_ fd: Int32) -> PeerCredentials? {
        // `struct ucred` needs _GNU_SOURCE, which the Glibc module does not define; its layout
        // is fixed by the kernel ABI: pid_t, uid_t, gid_t.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, length == 12 else { return nil }
        return PeerCredentials(pid: credentials.0, uid: credentials.1, gid: credentials.2)
    }

    /// True for `uid` itself and for root (who can read everything anyway).
    public func isSameUserOrRoot(as uid: UInt32) -> Bool {
        self.uid == uid || self.uid == 0
    }
}
