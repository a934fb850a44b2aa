import FoundationEssentials
import Glibc

/// Where `usefulmapd` listens and `umctl` connects when no `--socket` or `$USEFULMAP_SOCKET`
/// says otherwise: one definition, so the two can never disagree.
///
/// ```swift
/// DefaultSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])
/// // "/run/user/1000/usefulmap/usefulmapd.sock"
/// ```
public enum DefaultSocketPath {
    /// The environment variable both programs read before falling back to the default.
    public static let environmentVariable = "USEFULMAP_SOCKET"

    /// `$XDG_RUNTIME_DIR/usefulmap/usefulmapd.sock`, else `/tmp/usefulmap-UID/usefulmap/usefulmapd.sock`
    /// (the daemon refuses that fallback folder when another user made it; docs/operations.md).
    public static func resolve(environment: [String: String], uid: uid_t = getuid()) -> String {
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp/usefulmap-\(uid)"
        return "\(runtime)/usefulmap/usefulmapd.sock"
    }
}
