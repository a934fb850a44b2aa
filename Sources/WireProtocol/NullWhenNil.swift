/// An optional field that the wire writes as `null` when it has no value, instead of leaving
/// the key out as synthesized `Codable` does. The protocol promises scripts that such a key is
/// always present; marking the field keeps that promise in the field's declaration, so a
/// document's field list is written once (no hand-written `encode(to:)` to forget a field in).
///
/// ```swift
/// struct LinkDocument: Codable {
///     var url: String
///     @NullWhenNil var fallbackReason: String?   // {"fallback_reason":null,"url":"…"}
///     var geometry: [[Double]]?                    // left out when nil
/// }
/// ```
/// Decoding reads a missing key or `null` as nil, as an optional always was.
@propertyWrapper
public struct NullWhenNil<Value> {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }
}

extension NullWhenNil: Equatable where Value: Equatable {}
extension NullWhenNil: Hashable where Value: Hashable {}
extension NullWhenNil: Sendable where Value: Sendable {}

extension NullWhenNil: Encodable where Value: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

extension NullWhenNil: Decodable where Value: Decodable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// Synthesized `init(from:)` asks for a wrapped field with `decode`, which would refuse a
    /// missing key; a missing key reads as nil like any optional.
    public func decode<Value: Decodable>(_ type: NullWhenNil<Value>.Type, forKey key: Key) throws -> NullWhenNil<Value> {
        NullWhenNil(wrappedValue: try decodeIfPresent(Value.self, forKey: key))
    }
}
