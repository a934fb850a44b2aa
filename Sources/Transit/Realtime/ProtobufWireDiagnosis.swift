import CGTFSRealtime
import Foundation

/// Names why protobuf-c refused a body. protobuf-c only says "no"; this walks the wire format
/// again with the generated descriptors (so it follows the schema protobuf-c used) and reports
/// the first fault: a field cut short, an impossible tag, a known field with the wrong wire
/// type, or a required field that is absent (`entity[3].trip_update.trip`).
enum ProtobufWireDiagnosis {
    /// - parameter bytes: a body `transit_realtime__feed_message__unpack` refused.
    static func refusal(for bytes: UnsafeRawBufferPointer) -> RealtimeFeedRefusal {
        if looksLikeHTML(bytes) { return .htmlPage }
        let walker = Walker(bytes: bytes)
        let fault = withUnsafePointer(to: transit_realtime__feed_message__descriptor) {
            walker.walk(from: 0, to: bytes.count, descriptor: $0, path: "")
        }
        switch fault {
        case .none: return .undecodable
        case .malformed(let detail, let offset)?: return .notProtobuf(detail: detail, offset: offset, byteCount: bytes.count)
        case .missing(let path)?:
            switch path {
            case "header": return .missingHeader
            case "header.gtfs_realtime_version": return .missingVersion
            default: return .missingRequiredField(path: path)
            }
        }
    }

    /// A tag first (after white space or a UTF-8 byte order mark): `<` and a letter, `!` or
    /// `?`, and text after it, no control bytes in the first 512 (a FeedMessage never starts
    /// with `<`: 0x3C is an end-group tag, which protobuf-c refuses). Random bytes that happen to
    /// start with `<` are not a page.
    static func looksLikeHTML(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "<") else { return false }
        let next = bytes[i + 1]
        guard (next | 0x20) >= UInt8(ascii: "a") && (next | 0x20) <= UInt8(ascii: "z") || next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
        else { return false }
        return bytes[i..<min(bytes.count, i + 512)].allSatisfy { $0 >= 0x20 || [0x09, 0x0A, 0x0D].contains($0) }
    }

    enum Fault {
        case malformed(String, offset: Int)
        case missing(path: String)
    }

    private struct Walker {
        let bytes: UnsafeRawBufferPointer

        /// Recursion follows the schema's nesting (gtfs-realtime.proto has no cycles), not the input.
        func walk(from start: Int, to end: Int, descriptor: UnsafePointer<ProtobufCMessageDescriptor>,
                           path: String) -> Fault? {
            var position = start
            var seen = Set<UInt32>()
            var occurrences: [UInt32: Int] = [:]
            while position < end {
                let tagOffset = position
                guard let tag = varint(at: &position, end: end) else {
                    return .malformed("a field tag runs past the end", offset: tagOffset)
                }
                let number = UInt32(truncatingIfNeeded: tag >> 3)
                let wireType = Int(tag & 7)
                guard tag >> 3 != 0, tag >> 3 <= 0x1FFF_FFFF else {
                    return .malformed("field number \(tag >> 3) is not a valid protobuf field", offset: tagOffset)
                }
                let field = protobuf_c_message_descriptor_get_field(descriptor, number)
                let name = field.map { String(cString: $0.pointee.name) } ?? "field \(number)"
                let index = occurrences[number, default: 0]
                occurrences[number] = index + 1
                let fieldPath = (path.isEmpty ? "" : path + ".") + name
                    + (field?.pointee.label == PROTOBUF_C_LABEL_REPEATED ? "[\(index)]" : "")
                if let field, !Self.accepts(field.pointee, wireType: wireType) {
                    return .malformed("\(fieldPath) has wire type \(wireType), which its type does not allow", offset: tagOffset)
                }
                switch wireType {
                case 0:
                    guard varint(at: &position, end: end) != nil else {
                        return .malformed("\(fieldPath) runs past the end", offset: tagOffset)
                    }
                case 1, 5:
                    let width = wireType == 1 ? 8 : 4
                    guard end - position >= width else { return .malformed("\(fieldPath) runs past the end", offset: tagOffset) }
                    position += width
                case 2:
                    guard let length = varint(at: &position, end: end), length <= UInt64(end - position) else {
                        return .malformed("\(fieldPath) runs past the end", offset: tagOffset)
                    }
                    let contentEnd = position + Int(length)
                    if let field, field.pointee.type == PROTOBUF_C_TYPE_MESSAGE,
                       let nested = field.pointee.descriptor?.assumingMemoryBound(to: ProtobufCMessageDescriptor.self),
                       let fault = walk(from: position, to: contentEnd, descriptor: nested, path: fieldPath) {
                        return fault
                    }
                    position = contentEnd
                default:
                    return .malformed("\(fieldPath) has wire type \(wireType), which GTFS-Realtime never uses", offset: tagOffset)
                }
                seen.insert(number)
            }
            for i in 0..<Int(descriptor.pointee.n_fields) {
                let field = descriptor.pointee.fields[i]
                if field.label == PROTOBUF_C_LABEL_REQUIRED, !seen.contains(field.id) {
                    return .missing(path: (path.isEmpty ? "" : path + ".") + String(cString: field.name))
                }
            }
            return nil
        }

        /// A base-128 varint of at most 10 bytes, or nil when it runs past `end` or is longer.
        func varint(at position: inout Int, end: Int) -> UInt64? {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 70, by: 7) {
                guard position < end else { return nil }
                let byte = bytes[position]
                position += 1
                value |= UInt64(byte & 0x7F) << UInt64(shift)
                if byte & 0x80 == 0 { return value }
            }
            return nil
        }

        /// The wire types protobuf-c reads for a field of this type (repeated scalars may be packed).
        static func accepts(_ field: ProtobufCFieldDescriptor, wireType: Int) -> Bool {
            let expected: Int = switch field.type {
            case PROTOBUF_C_TYPE_STRING, PROTOBUF_C_TYPE_BYTES, PROTOBUF_C_TYPE_MESSAGE: 2
            case PROTOBUF_C_TYPE_SFIXED64, PROTOBUF_C_TYPE_FIXED64, PROTOBUF_C_TYPE_DOUBLE: 1
            case PROTOBUF_C_TYPE_SFIXED32, PROTOBUF_C_TYPE_FIXED32, PROTOBUF_C_TYPE_FLOAT: 5
            default: 0
            }
            return wireType == expected || (field.label == PROTOBUF_C_LABEL_REPEATED && wireType == 2)
        }
    }
}
