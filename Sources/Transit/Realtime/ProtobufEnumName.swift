import CGTFSRealtime
import Foundation

/// GTFS-Realtime enum values as the lower-case names `RealtimeFeed` uses ("no_service",
/// "skipped"), both ways, read from the generated descriptors so no table can drift from the proto.
enum ProtobufEnumName {
    /// The value's name in lower case; nil for a number the proto does not define (proto2 reads
    /// such a value as absent, so callers fall back to the field's default).
    static func name(of value: UInt32, in descriptor: ProtobufCEnumDescriptor) -> String? {
        withUnsafePointer(to: descriptor) { descriptor in
            protobuf_c_enum_descriptor_get_value(descriptor, Int32(bitPattern: value)).map { String(cString: $0.pointee.name).lowercased() }
        }
    }

    /// The number of a lower-case name; nil for a name the proto does not define.
    static func value(named name: String, in descriptor: ProtobufCEnumDescriptor) -> UInt32? {
        withUnsafePointer(to: descriptor) { descriptor in
            protobuf_c_enum_descriptor_get_value_by_name(descriptor, name.uppercased()).map { UInt32(bitPattern: $0.pointee.value) }
        }
    }
}
