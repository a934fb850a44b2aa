import FoundationEssentials
import WireProtocol

/// `umctl __man`: the umctl(1) manual page in roff, built from the same command table as
/// `umctl help`, so the page cannot drift from the code. `make install` writes it.
enum ManualPage {
    static func umctl(commands: [CommandSpec]) -> String {
        var page = [
            ".TH UMCTL 1 \"\" \"umctl \(ProtocolVersion.softwareVersion)\" \"Useful Map\"",
            ".SH NAME", "umctl \\- talk to usefulmapd, the Useful Map daemon",
            ".SH SYNOPSIS", ".B umctl", ".I command", ".RI [ arguments ]", ".RB [ \\-\\-json ]", ".RB [ \\-\\-socket", ".IR PATH ]",
            ".SH DESCRIPTION",
            text("umctl is the command-line client of usefulmapd(8): each command sends one request over the daemon's Unix socket and prints the answer as a table, or as one line of JSON with --json. Nodes and segments are numbered from 1, as `umctl plan show` prints them. `umctl help COMMAND...` shows the same help as this page."),
            ".SH COMMANDS",
        ]
        for spec in commands {
            page += [".TP", ".B \(roff(spec.usage))", text(spec.abstract)]
            if let discussion = spec.discussion { page += [".IP", text(discussion)] }
            let entries = spec.positionals.map { ($0.name, $0.help) }
                + spec.options.map { (word($0), $0.help) }
            if !entries.isEmpty {
                page.append(".RS")
                for (name, help) in entries { page += [".TP", ".B \(roff(name))", text(help)] }
                page.append(".RE")
            }
        }
        page.append(".SH OPTIONS")
        page.append(text("Every command takes these options, before or after its arguments:"))
        for option in CommandSpec.shared { page += [".TP", ".B \(roff(word(option)))", text(option.help)] }
        page += [".SH EXIT STATUS", text(CommandLineTool.exitCodeHelp.replacing("exit codes: ", with: ""))]
        page += [".SH ENVIRONMENT",
                 ".TP", ".B USEFULMAP_SOCKET", text("the daemon's socket when --socket is not given."),
                 ".TP", ".B XDG_RUNTIME_DIR", text("else the socket is $XDG_RUNTIME_DIR/usefulmap/usefulmapd.sock.")]
        page += [".SH SEE ALSO", ".BR usefulmapd (8)"]
        return page.joined(separator: "\n") + "\n"
    }

    static func word(_ option: CommandSpec.Option) -> String { option.word }

    /// Text for roff: backslashes and dashes escaped, no line starting with a control character.
    static func roff(_ text: String) -> String {
        text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
    }

    /// Running text: each source line kept as a line, protected from being read as a request.
    static func text(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                let escaped = roff(line.trimmingBlanks())
                return escaped.first == "." || escaped.first == "'" ? "\\&" + escaped : escaped
            }
            .map { $0.isEmpty ? ".br" : $0 }
            .joined(separator: "\n")
    }
}
