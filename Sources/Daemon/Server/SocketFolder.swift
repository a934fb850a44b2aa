import Foundation
import Glibc

/// The runtime folder the daemon's socket lives in. Whoever may write in it, or in a folder
/// above it, can put their own socket in place of ours and read what clients send; so the
/// daemon creates the folder itself (mode 0700, its own user) and refuses one it does not own,
/// one that group or others may use at all, and a folder above owned by another user or
/// writable by others without the sticky bit (`/tmp` is fine, `/tmp/usefulmap-1000` made by
/// someone else is not). docs/operations.md states the same rules.
///
/// ```swift
/// try SocketFolder.prepare("/run/user/1000/usefulmap")   // created 0700, or checked
/// ```
enum SocketFolder {
    /// Creates `path` (and missing folders above it) 0700, or checks the existing one.
    /// - throws: `DaemonError.socketSetup` naming the folder, its owner or mode, and what to do.
    static func prepare(_ path: String, uid: uid_t = geteuid()) throws {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let components = absolute.split(separator: "/").map(String.init)
        var current = ""
        for (index, component) in components.enumerated() {
            try checkAbove(current.isEmpty ? "/" : current, uid: uid)
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw DaemonError.socketSetup("cannot create the socket folder \(current): \(String(cString: strerror(errno)))")
            }
            if index == components.count - 1 { try checkOwn(current, uid: uid) }
        }
        if components.isEmpty { try checkOwn("/", uid: uid) }
    }

    /// A folder above the socket's: the daemon's user or root owns it (and any link to it), and
    /// others may not write in it unless it is sticky.
    private static func checkAbove(_ path: String, uid: uid_t) throws {
        var link = stat(), target = stat()
        guard lstat(path, &link) == 0, stat(path, &target) == 0 else {
            throw DaemonError.socketSetup("cannot inspect \(path), above the socket folder: \(String(cString: strerror(errno)))")
        }
        let folder = "\(path), above the socket folder"
        for owner in [link.st_uid, target.st_uid] where owner != uid && owner != 0 {
            throw refusal(folder, "it belongs to uid \(owner), who could replace what is inside")
        }
        guard (target.st_mode & S_IFMT) == S_IFDIR else { throw refusal(folder, "it is not a folder") }
        if target.st_mode & 0o022 != 0 && target.st_mode & S_ISVTX == 0 {
            throw refusal(folder, "others may write in it (mode \(octal(target.st_mode))) and it is not sticky")
        }
    }

    /// The socket's own folder: a real folder (not a link), the daemon's user's, mode 0700 or stricter.
    private static func checkOwn(_ path: String, uid: uid_t) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw DaemonError.socketSetup("cannot inspect the socket folder \(path): \(String(cString: strerror(errno)))")
        }
        let folder = "the socket folder \(path)"
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw refusal(folder, "it is not a folder (or is a symbolic link)") }
        guard info.st_uid == uid else {
            throw refusal(folder, "it belongs to uid \(info.st_uid), not to usefulmapd's user (uid \(uid))")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw refusal(folder, "its mode \(octal(info.st_mode)) lets other users in (`chmod 700` it if it is yours)")
        }
    }

    /// - parameter what: the folder, as the message names it.
    private static func refusal(_ what: String, _ reason: String) -> DaemonError {
        .socketSetup("refusing \(what): \(reason); choose another --socket or fix the folder")
    }

    private static func octal(_ mode: mode_t) -> String {
        "0" + String(mode & 0o7777, radix: 8)
    }
}
