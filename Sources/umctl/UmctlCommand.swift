import Foundation
import WireProtocol

/// One `umctl` subcommand: its declared arguments (`spec`), how it reads and checks them
/// before anything is sent, the one request it makes, and how a person sees the answer.
protocol UmctlCommand {
    static var spec: CommandSpec { get }
    /// Reads the parsed words. - throws: `UsageError`.
    init(_ arguments: ParsedArguments) throws
    /// Rejects bad input before anything is sent, naming the argument. - throws: `UsageError`.
    func validate() throws
    /// The method and params to send.
    func request() throws -> (WireMethod, JSONValue)
    /// The answer for a person.
    func render(_ result: JSONValue) throws -> String
    /// Notifications before the answer (import progress); printed to stderr by default.
    func show(_ notification: WireNotification, json: Bool)
}

extension UmctlCommand {
    func validate() throws {}

    func show(_ notification: WireNotification, json: Bool) {
        if json, let line = try? WireCodec.line(for: notification) {
            FileHandle.standardOutput.write(line)
        }
    }
}

/// Checks shared by several commands.
enum Check {
    static func place(_ text: String, _ name: String) throws {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("\(name) must not be empty") }
    }

    /// `HH:MM` or ISO 8601; the daemon interprets it in the region's time zone.
    static func time(_ text: String?, _ name: String) throws {
        guard let text else { return }
        guard WireTime.parse(text, timeZone: TimeZone(identifier: "UTC") ?? .current, now: Date()) != nil else {
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

    static func exclusive(_ a: String?, _ b: String?, _ names: String) throws {
        if a != nil && b != nil { throw UsageError("give either \(names), not both") }
    }
}

/// A params object from optional values (nil values are left out).
func params(_ values: [String: JSONValue?]) -> JSONValue {
    .object(values.compactMapValues { $0 })
}

extension Optional where Wrapped == String {
    var json: JSONValue? { map(JSONValue.string) }
}

extension Optional where Wrapped == Int {
    var json: JSONValue? { map { JSONValue.number(Double($0)) } }
}

func number<T: BinaryInteger>(_ value: T) -> JSONValue { .number(Double(value)) }
