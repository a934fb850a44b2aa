import Foundation
import Glibc

/// The daemon's listening Unix socket: either passed by systemd (socket activation) or bound
/// here, refusing to take over a socket another daemon still answers on.
public enum ListeningSocket {
    /// The first socket systemd passed (`LISTEN_PID` is this process and `LISTEN_FDS` ≥ 1), else nil.
    /// The variables are removed so that child processes do not inherit them.
    public static func activated(environment: [String: String]) -> Int32? {
        guard let pid = environment["LISTEN_PID"].flatMap({ Int32($0) }), pid == getpid(),
              let count = environment["LISTEN_FDS"].flatMap({ Int($0) }), count >= 1 else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3 // SD_LISTEN_FDS_START
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// Binds and listens on `path`, in a folder `SocketFolder` created or checked, making the
    /// socket 0600. A socket file nobody answers on is stale and removed.
    /// - throws: `DaemonError.socketInUse` when another daemon answers, `.socketSetup` otherwise
    ///   (including a socket folder refused as unsafe).
    public static func bind(path: String, logger: DaemonLogger) throws -> Int32 {
        // By URL: NSString's deletingLastPathComponent crashes on a name with no "/" (`--socket
        // usefulmapd.sock`) in this toolchain's Foundation.
        try SocketFolder.prepare(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        var info = stat()
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                throw DaemonError.socketSetup("\(path) exists and is not a socket; not touching it")
            }
            if answers(path) {
                throw DaemonError.socketInUse(path)
            }
            logger.notice("removing stale socket", ["socket": path])
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonError.socketSetup("socket(): \(String(cString: strerror(errno)))") }
        var address = try socketAddress(path)
        let previousMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(previousMask)
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw DaemonError.socketSetup("cannot bind \(path): \(reason)")
        }
        chmod(path, 0o600)
        guard listen(fd, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw DaemonError.socketSetup("cannot listen on \(path): \(reason)")
        }
        return fd
    }

    /// True when something accepts connections on `path`.
    static func answers(_ path: String) -> Bool {
        guard var address = try? socketAddress(path) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }

    static func socketAddress(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw DaemonError.socketSetup("socket path is too long (\(bytes.count) bytes): \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}
