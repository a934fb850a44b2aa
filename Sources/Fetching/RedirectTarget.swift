import Foundation

/// Where a redirect leads, and whether it stays on the host and port the user named. A
/// redirect elsewhere is refused unless the request allows it: otherwise a feed's operator
/// could point the daemon at any host or local port and read open from closed ports in the
/// error codes (issue 44).
enum RedirectTarget {
    /// `location` (absolute or relative) resolved against the URL that answered with it.
    static func resolve(_ location: String, from current: String) -> String? {
        guard let base = URL(string: current), let target = URL(string: location, relativeTo: base) else { return nil }
        return target.absoluteString
    }

    /// Same host (case-insensitive) and same explicit port, a scheme's default port counting
    /// as none: `http://a/x` → `https://a/y` stays, `http://a:1/x` → `http://a:2/x` does not.
    static func staysOnHost(_ target: String, named: String) -> Bool {
        guard let from = URL(string: named), let to = URL(string: target) else { return false }
        return from.host?.lowercased() == to.host?.lowercased() && explicitPort(from) == explicitPort(to)
    }

    private static func explicitPort(_ url: URL) -> Int? {
        guard let port = url.port else { return nil }
        let defaults = ["http": 80, "https": 443]
        return defaults[url.scheme?.lowercased() ?? ""] == port ? nil : port
    }
}
