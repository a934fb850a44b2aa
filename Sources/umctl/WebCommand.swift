import FoundationEssentials
import Glibc
import WireProtocol

/// `umctl web`: opens the daemon's web app in the user's browser (`xdg-open`), logged in with a
/// one-time token signed with the secret in `web-login` next to the socket; `--print` prints
/// the URL instead. `--compare FROM TO [--at T]` and `--plan ID` open that view (deep links).
/// Talks to no socket: the daemon's address and secret are in the file.
struct WebCommand {
    var print = false
    var view = ""
    var socket: String?

    static let spec = CommandSpec(
        path: ["web"], abstract: "Open the daemon's web app in the browser (usefulmapd --http 127.0.0.1:PORT).",
        options: [.init(name: "--print", valueName: nil, help: "print the app's one-time login URL instead of opening it"),
                  .init(name: "--compare", valueName: "FROM TO", help: "open the comparison of the four modes from FROM to TO"),
                  .init(name: "--at", valueName: "TIME", help: "with --compare: leave at TIME (HH:MM or ISO 8601)"),
                  .init(name: "--plan", valueName: "ID", help: "open plan ID")],
        discussion: """
        The URL logs in once, within two minutes, and leaves an HttpOnly session cookie in that
        browser. Needs a daemon started with --http 127.0.0.1:PORT (or `http = 127.0.0.1:PORT`).
        """)

    /// Reads the words after `web`. - throws: `UsageError`.
    init(_ words: [String]) throws {
        var rest = words[...]
        var compare: (String, String)?
        var at: String?
        var plan: String?
        func value(_ name: String) throws -> String {
            guard let value = rest.popFirst() else { throw UsageError("\(name) needs a value\nusage: \(Self.spec.usage)") }
            return value
        }
        while let word = rest.popFirst() {
            switch word {
            case "--print": print = true
            case "--socket": socket = try value("--socket")
            case "--compare": compare = (try value("--compare FROM"), try value("--compare TO"))
            case "--at": at = try value("--at")
            case "--plan": plan = try value("--plan")
            case "--json": break
            default: throw UsageError("unknown argument \(word) of umctl web\nusage: \(Self.spec.usage)")
            }
        }
        if compare != nil, plan != nil { throw UsageError("--compare and --plan open different views: give one") }
        if at != nil, compare == nil { throw UsageError("--at goes with --compare FROM TO") }
        if let (from, to) = compare {
            try Check.place(from, "FROM")
            try Check.place(to, "TO")
            try Check.time(at, "--at")
            view = "#/compare?from=\(Self.encoded(from))&to=\(Self.encoded(to))" + (at.map { "&at=\(Self.encoded($0))" } ?? "")
        }
        if let plan {
            guard let id = Int64(plan), id >= 1 else { throw UsageError("--plan must be a plan ID (a positive whole number), got \"\(plan)\"") }
            view = "#/plan/\(id)"
        }
    }

    /// Prints or opens the URL; returns the exit code.
    func run(environment: [String: String]) -> Int32 {
        let login: WebLogin
        do {
            login = try WebLogin.read(socketPath: CommandLineTool.socketPath(socket, environment: environment))
        } catch {
            CommandLineTool.fail("umctl: \(error)")
            return CommandLineTool.ExitCode.connection.rawValue
        }
        let url = login.url(token: WebLogin.token(secret: login.secret, now: time(nil)), view: view)
        if print {
            Swift.print(url)
            return CommandLineTool.ExitCode.success.rawValue
        }
        var pid = pid_t()
        let arguments = ["xdg-open", url]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawnp(&pid, "xdg-open", nil, nil, &argv, environ) == 0 else {
            CommandLineTool.fail("umctl: cannot run xdg-open to open the browser; `umctl web --print` prints the URL")
            return CommandLineTool.ExitCode.usage.rawValue
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return CommandLineTool.ExitCode.success.rawValue
    }

    /// Percent-encodes all but letters, digits and `-._~` (a place name goes in the URL's fragment).
    static func encoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || "-._~".utf8.contains(byte) {
                result.append(Character(Unicode.Scalar(byte)))
            } else {
                let digits = Array("0123456789ABCDEF")
                result += "%\(digits[Int(byte >> 4)])\(digits[Int(byte & 15)])"
            }
        }
        return result
    }
}
