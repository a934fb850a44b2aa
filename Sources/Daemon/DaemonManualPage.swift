import Foundation

/// `usefulmapd __man`: the usefulmapd(8) manual page in roff, built from the options of
/// `usefulmapd --help` (`DaemonConfiguration.usage`) and the settings table (their environment
/// variables and config keys), so the page cannot drift from the code. `make install` writes it.
public enum DaemonManualPage {
    public static func render(version: String) -> String {
        var page = [
            ".TH USEFULMAPD 8 \"\" \"usefulmapd \(version)\" \"Useful Map\"",
            ".SH NAME", "usefulmapd \\- the Useful Map trip planner daemon (walk, transit, car or bike)",
            ".SH SYNOPSIS", ".B usefulmapd", ".RI [ options ]",
            ".SH DESCRIPTION",
            text("usefulmapd builds door-to-door trip plans (streets from OpenStreetMap through Routino, transit from GTFS timetables), keeps places, histories and plans in one SQLite file, and answers umctl(1) over a Unix socket. It runs as your user, usually as the systemd user service usefulmapd.service started by usefulmapd.socket; it also takes a socket from systemd-socket-activate(1). SIGTERM or SIGINT stops it cleanly."),
            ".SH OPTIONS",
        ]
        for (term, help) in options {
            page += [".TP", ".B \(roff(term))", text(help)]
        }
        page += [".TP", ".B \\-\\-help", text("print the options and exit."),
                 ".TP", ".B \\-\\-version", text("print the version and exit.")]
        page += [".SH ENVIRONMENT", text("Each setting is read from, in order: its flag, its environment variable, its key in the config file, its default.")]
        for setting in DaemonConfiguration.settings {
            page += [".TP", ".B \(roff(setting.environment))", text("as \(setting.flag); config file key \(setting.key).")]
        }
        page += [".TP", ".B USEFULMAP_CONFIG", text("as --config."),
                 ".TP", ".B USEFULMAP_ROUTINO_WORKER", text("the usefulmap-routino-worker program, when it is not beside usefulmapd."),
                 ".TP", ".B XDG_DATA_HOME, XDG_RUNTIME_DIR, XDG_CONFIG_HOME", text("where the defaults of data_dir, socket and the config file live.")]
        page += [".SH FILES",
                 ".TP", ".I ~/.config/usefulmap/usefulmapd.conf", text("the config file: one key = value per line; # starts a comment."),
                 ".TP", ".I ~/.local/share/usefulmap/usefulmap.sqlite", text("saved places, histories and plans."),
                 ".TP", ".I ~/.local/share/usefulmap/regions/", text("imported regions."),
                 ".TP", ".I ~/.local/share/usefulmap/plans.ics",
                 text("every plan from today on as an iCalendar file, rewritten after each plan change, for a calendar to subscribe to."),
                 ".TP", ".I $XDG_RUNTIME_DIR/usefulmap/usefulmapd.sock", text("the socket umctl talks to.")]
        page += [".SH EXIT STATUS", text("0 after a clean stop; 1 when it cannot start (socket in use, database refused, data directory not writable); 2 for a bad command line or config file.")]
        page += [".SH SEE ALSO", ".BR umctl (1),", ".BR systemd.socket (5),", ".BR systemd-socket-activate (1)"]
        return page.joined(separator: "\n") + "\n"
    }

    /// The option lines of `usage`: "  --flag VALUE   help", continued on indented lines.
    static var options: [(term: String, help: String)] {
        var result: [(term: String, help: String)] = []
        let lines = DaemonConfiguration.usage.split(separator: "\n").drop { !$0.hasPrefix("  --") }
        for line in lines {
            if line.hasPrefix("  --"), let gap = line.range(of: "  ", range: line.index(line.startIndex, offsetBy: 2)..<line.endIndex) {
                result.append((String(line[..<gap.lowerBound]).trimmingCharacters(in: .whitespaces),
                               line[gap.upperBound...].trimmingCharacters(in: .whitespaces)))
            } else if line.hasPrefix("    "), !result.isEmpty {
                result[result.count - 1].help += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return result
    }

    static func roff(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
    }

    static func text(_ text: String) -> String {
        let escaped = roff(text)
        return escaped.first == "." || escaped.first == "'" ? "\\&" + escaped : escaped
    }
}
