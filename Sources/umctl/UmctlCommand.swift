import FoundationEssentials
import WireProtocol

/// One `umctl` subcommand: its declared arguments (`spec`), how it reads and checks them
/// before anything is sent, the one request it makes, and how a person sees the answer.
protocol UmctlCommand {
    /// The result type of the command's method, as its `Endpoint` says.
    associatedtype Answer: Decodable
    /// The words that name the command (`["plan", "show"]`); also its spec's path. Finding the
    /// command reads only these, so no other command's spec (help text included) is built.
    static var path: [String] { get }
    static var spec: CommandSpec { get }
    /// Reads the parsed words. - throws: `UsageError`.
    init(_ arguments: ParsedArguments) throws
    /// Rejects bad input before anything is sent, naming the argument. - throws: `UsageError`.
    func validate() throws
    /// The request to send, built from the method's endpoint and its typed params.
    func request() throws -> CommandRequest<Answer>
    /// The answer for a person.
    func render(_ answer: Answer) throws -> String
    /// Notifications before the answer (import progress); printed to stderr by default.
    func show(_ notification: WireNotification, json: Bool)
    /// The answer is a plan the command computed: a segment without a route fails it (exit 4).
    static var computesPlan: Bool { get }
    /// The daemon's error with what this command's user can do about it (as it came by default).
    func explained(_ error: WireError) -> WireError
}

extension UmctlCommand {
    func validate() throws {}
    static var computesPlan: Bool { false }
    func explained(_ error: WireError) -> WireError { error }

    func show(_ notification: WireNotification, json: Bool) {
        if json, let line = try? WireCodec.line(for: notification) {
            StandardStream.writeOutput(line)
        }
    }
}

/// Checks shared by several commands.
enum Check {
    static func place(_ text: String, _ name: String) throws {
        guard !text.trimmingBlanks().isEmpty else { throw UsageError("\(name) must not be empty") }
    }

    /// `HH:MM` or ISO 8601; the daemon interprets it in the region's time zone.
    static func time(_ text: String?, _ name: String) throws {
        guard let text else { return }
        guard WireTime.parse(text, timeZone: .gmt, now: Date()) != nil else {
            throw UsageError("\(name) \"\(text)\" is not a time: use HH:MM or ISO 8601 such as 2022-01-12T08:15 or 2022-01-12T08:15+02:00")
        }
    }

    /// A positive number of metres, or nil when the option was not given.
    static func metres(_ text: String?, _ name: String) throws -> Double? {
        guard let text else { return nil }
        guard let value = Double(text), value.isFinite, value > 0 else {
            throw UsageError("\(name) must be a positive number of metres, got \"\(text)\"")
        }
        return value
    }

    static func oneOf(_ value: String?, _ allowed: [String], _ name: String) throws {
        guard let value else { return }
        guard allowed.contains(value) else {
            throw UsageError("\(name) must be \(allowed.joined(separator: ", ")), got \"\(value)\"")
        }
    }

    /// The word a param takes (a mode, a pace, a preset, a format), read with the param's own
    /// enum so that umctl takes exactly the words the daemon does.
    static func word<Word: WireWord>(_ text: String, _ name: String) throws -> Word {
        guard let word = Word(rawValue: text) else { throw UsageError("\(name) must be \(Word.allowedWords), got \"\(text)\"") }
        return word
    }

    /// As `word`, or nil when the option was not given.
    static func word<Word: WireWord>(_ text: String?, _ name: String) throws -> Word? {
        try text.map { try word($0, name) }
    }

    static func exclusive(_ a: String?, _ b: String?, _ names: String) throws {
        if a != nil && b != nil { throw UsageError("give either \(names), not both") }
    }
}

/// One request of a command. Built from an `Endpoint` and that endpoint's params type, so a
/// command cannot send params the method does not take nor read a result it does not return.
/// The params stay typed until they are encoded into the request line; the answer comes back
/// as it was written, because `--json` prints it so.
struct CommandRequest<Answer: Decodable> {
    let method: WireMethod
    let params: any Encodable & Sendable
    /// Open files sent with the request (`SCM_RIGHTS`), for a method whose params say so.
    var files: [Int32] = []

    init<P>(_ endpoint: Endpoint<P, Answer>, _ params: P, files: [Int32] = []) throws {
        method = endpoint.method
        self.params = params
        self.files = files
    }
}

extension UmctlCommand {
    /// Sends the command's request; returns the answer as it came and, unless `json`, as text.
    func run(on client: WireClient, json: Bool) async throws -> (result: JSONValue, text: String?) {
        let request = try request()
        let result: JSONValue
        let line: Data
        do {
            // Whatever comes next (the answer, an error, a batch's next line) starts on its own line.
            defer { ProgressLine.standardError.finish() }
            (result, line) = try await client.callReturningLine(request.method.rawValue, params: request.params, passing: request.files) {
                show(json ? $0 : TerminalText.safe($0), json: json)
            }
        } catch let error as WireError {
            throw explained(error)
        }
        guard !json else { return (result, nil) }
        // Names from OSM, GTFS or other users reach a person only through `TerminalText`.
        let answer = try WireCodec.answer(Answer.self, from: TerminalText.safe(result, cameIn: line), method: request.method.rawValue)
        return (result, try render(answer))
    }
}
