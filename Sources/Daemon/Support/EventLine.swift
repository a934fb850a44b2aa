import Foundation
import WireProtocol

/// One daemon event encoded once for every watcher: its JSON object, and the `event`
/// notification line around it in two halves, either side of the `request_id` member each
/// `watch` adds (keys are written sorted, so that member falls between them). A watcher's line
/// is then two copies and its id, the same bytes as `WireCodec.line(for:)` of the notification,
/// instead of an encoding per watcher (200 watchers made each event cost 200 encodings).
public final class EventLine: Sendable {
    /// The event as published (`kind`, `at` and its fields).
    public let value: JSONValue
    /// `value`'s JSON, as the web app's event stream sends it.
    public let json: Data
    /// `{"jsonrpc":"2.0","method":"event","params":{` and the members before `request_id`, up to its `:`.
    private let head: Data
    /// The members after `request_id`, and `}}` with the newline.
    private let tail: Data

    private static let requestIDKey = "request_id"
    /// The notification's envelope up to its params' first member: `{"jsonrpc":"2.0","method":"event","params":{`.
    private static let envelopeHead: Data = {
        let empty = WireCodec.text(of: WireNotification(method: WireMethod.eventNotification, params: .object([:])).jsonValue)
        return empty.dropLast(2) // `}}`
    }()

    /// - parameter fields: the event's members (a `request_id` among them is left out: each watch sets its own).
    public init(fields: [String: JSONValue]) {
        let before = fields.filter { $0.key < Self.requestIDKey }, after = fields.filter { $0.key > Self.requestIDKey }
        let beforeMembers = Self.members(of: before), afterMembers = Self.members(of: after)
        var all = beforeMembers
        if !all.isEmpty, !afterMembers.isEmpty { all.append(UInt8(ascii: ",")) }
        all.append(afterMembers)
        value = .object(fields.filter { $0.key != Self.requestIDKey })
        json = Data("{".utf8) + all + Data("}".utf8)
        var head = Self.envelopeHead + beforeMembers
        if !beforeMembers.isEmpty { head.append(UInt8(ascii: ",")) }
        head.append(contentsOf: Array("\"\(Self.requestIDKey)\":".utf8))
        self.head = head
        var tail = Data()
        if !afterMembers.isEmpty { tail.append(UInt8(ascii: ",")) }
        tail.append(afterMembers)
        tail.append(contentsOf: [UInt8(ascii: "}"), UInt8(ascii: "}"), 0x0A])
        self.tail = tail
    }

    /// The `event` notification line (newline included) for the watch whose request id is
    /// `requestID`, already written as JSON (`WireCodec.text(of: context.requestIDValue)`).
    public func notificationLine(requestID: Data) -> Data {
        var line = Data(capacity: head.count + requestID.count + tail.count)
        line.append(head)
        line.append(requestID)
        line.append(tail)
        return line
    }

    /// An object's members as JSON, without the braces (empty for no member).
    private static func members(of object: [String: JSONValue]) -> Data {
        let written = WireCodec.text(of: .object(object))
        return written.dropFirst().dropLast()
    }
}
