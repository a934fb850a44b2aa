/// Turns an `Encodable` value into a `JSONValue`, as `WireCodec.encoder` writes it: camelCase
/// properties as snake_case keys (`WireKeyName`), a `[String: V]` with its keys as they are,
/// optionals left out when nil, a NaN or infinity refused.
///
/// The client's request encoder, for the reason `JSONValueDecoder` gives: Foundation's
/// `JSONEncoder` asks the runtime about marker protocols for every new type, and each first
/// question scans all of the binary's protocol conformances. This one never casts to a protocol.
///
/// ```swift
/// let params = try JSONValueEncoder.encode(Params.PlanShow(id: 3))   // {"id": 3}
/// ```
public enum JSONValueEncoder {
    /// - throws: `EncodingError.invalidValue` for a number JSON cannot hold.
    public static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let root = EncodedNode()
        try root.write(value, codingPath: [])
        return root.json
    }
}

/// What one value encoded to so far: containers hand out nodes and fill them in place.
private final class EncodedNode {
    var value: JSONValue?
    var members: [String: EncodedNode]?
    var elements: [EncodedNode]?

    init(_ value: JSONValue? = nil) { self.value = value }

    /// A value that encoded nothing is an empty object, as `JSONEncoder` writes it.
    var json: JSONValue {
        if let value { return value }
        if let elements { return .array(elements.map(\.json)) }
        return .object((members ?? [:]).mapValues(\.json))
    }

    func write<T: Encodable>(_ encodable: T, codingPath: [any CodingKey]) throws {
        if T.self == JSONValue.self, let json = encodable as? JSONValue {
            value = json
            return
        }
        try encodable.encode(to: ValueWriter(node: self, codingPath: codingPath))
    }

    func member(_ name: String) -> EncodedNode {
        let node = EncodedNode()
        members = members ?? [:]
        members?[name] = node
        return node
    }

    func appended() -> EncodedNode {
        let node = EncodedNode()
        elements = elements ?? []
        elements?.append(node)
        return node
    }
}

/// A number as JSON holds it; NaN and infinities are refused.
private func number(_ value: Double, _ codingPath: [any CodingKey]) throws -> JSONValue {
    guard value.isFinite else {
        throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) cannot be written in JSON"))
    }
    return .number(value)
}

/// A Float as its own shortest text reads back (0.1, not 0.100000001490116), as JSONEncoder writes it.
private func number(_ value: Float, _ codingPath: [any CodingKey]) throws -> JSONValue {
    try number(Double(value.description) ?? .nan, codingPath)
}

/// The encoder for one node; it is also the node's single-value container.
private struct ValueWriter: Encoder, SingleValueEncodingContainer {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.members == nil { node.members = [:] }
        return KeyedEncodingContainer(KeyedWriter<Key>(node: node, codingPath: codingPath,
                                                       convertsKeys: !WireKeyName.isDictionaryKey(Key.self)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.elements == nil { node.elements = [] }
        return UnkeyedWriter(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() { node.value = .null }
    func encode(_ value: Bool) { node.value = .bool(value) }
    func encode(_ value: String) { node.value = .string(value) }
    func encode(_ value: Double) throws { node.value = try number(value, codingPath) }
    func encode(_ value: Float) throws { node.value = try number(value, codingPath) }
    func encode(_ value: Int) { node.value = .number(Double(value)) }
    func encode(_ value: Int8) { node.value = .number(Double(value)) }
    func encode(_ value: Int16) { node.value = .number(Double(value)) }
    func encode(_ value: Int32) { node.value = .number(Double(value)) }
    func encode(_ value: Int64) { node.value = .number(Double(value)) }
    func encode(_ value: UInt) { node.value = .number(Double(value)) }
    func encode(_ value: UInt8) { node.value = .number(Double(value)) }
    func encode(_ value: UInt16) { node.value = .number(Double(value)) }
    func encode(_ value: UInt32) { node.value = .number(Double(value)) }
    func encode(_ value: UInt64) { node.value = .number(Double(value)) }
    func encode<T: Encodable>(_ value: T) throws { try node.write(value, codingPath: codingPath) }
}

/// An object's members; property names become wire keys.
private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    let convertsKeys: Bool

    private func name(_ key: Key) -> String { convertsKeys ? WireKeyName.snakeCase(key.stringValue) : key.stringValue }

    private func set(_ value: JSONValue, _ key: Key) { node.member(name(key)).value = value }

    func encodeNil(forKey key: Key) { set(.null, key) }
    func encode(_ value: Bool, forKey key: Key) { set(.bool(value), key) }
    func encode(_ value: String, forKey key: Key) { set(.string(value), key) }
    func encode(_ value: Double, forKey key: Key) throws { set(try number(value, codingPath + [key]), key) }
    func encode(_ value: Float, forKey key: Key) throws { set(try number(value, codingPath + [key]), key) }
    func encode(_ value: Int, forKey key: Key) { set(.number(Double(value)), key) }
    func encode(_ value: Int8, forKey key: Key) { set(.number(Double(value)), key) }
    func encode(_ value: Int16, forKey key: Key) { set(.number(Double(value)), key) }
    func encode(_ value: Int32, forKey key: Key) { set(.number(Double(value)), key) }
    func encode(_ value: Int64, forKey key: Key) { set(.number(Double(value)), key) }
    func encode(_ value: UInt, forKey key: Key) { set(.number(Double(value)), key) }
    func encode(_ value: UInt8, forKey key: Key) { set(.number(Double(value)), key) }
    func encode(_ value: UInt16, forKey key: Key) { set(.number(Double(value)), key) }
    func encode(_ value: UInt32, forKey key: Key) { set(.number(Double(value)), key) }
    func encode(_ value: UInt64, forKey key: Key) { set(.number(Double(value)), key) }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.member(name(key)).write(value, codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        ValueWriter(node: node.member(name(key)), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        ValueWriter(node: node.member(name(key)), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superEncoder() -> any Encoder {
        ValueWriter(node: node.member("super"), codingPath: codingPath + [ElementKey(stringValue: "super")])
    }

    func superEncoder(forKey key: Key) -> any Encoder {
        ValueWriter(node: node.member(name(key)), codingPath: codingPath + [key])
    }
}

/// An array's elements, appended in order.
private struct UnkeyedWriter: UnkeyedEncodingContainer {
    let node: EncodedNode
    let codingPath: [any CodingKey]

    var count: Int { node.elements?.count ?? 0 }

    private func append(_ value: JSONValue) { node.appended().value = value }
    private var nextPath: [any CodingKey] { codingPath + [ElementKey(index: count)] }

    func encodeNil() { append(.null) }
    func encode(_ value: Bool) { append(.bool(value)) }
    func encode(_ value: String) { append(.string(value)) }
    func encode(_ value: Double) throws { append(try number(value, nextPath)) }
    func encode(_ value: Float) throws { append(try number(value, nextPath)) }
    func encode(_ value: Int) { append(.number(Double(value))) }
    func encode(_ value: Int8) { append(.number(Double(value))) }
    func encode(_ value: Int16) { append(.number(Double(value))) }
    func encode(_ value: Int32) { append(.number(Double(value))) }
    func encode(_ value: Int64) { append(.number(Double(value))) }
    func encode(_ value: UInt) { append(.number(Double(value))) }
    func encode(_ value: UInt8) { append(.number(Double(value))) }
    func encode(_ value: UInt16) { append(.number(Double(value))) }
    func encode(_ value: UInt32) { append(.number(Double(value))) }
    func encode(_ value: UInt64) { append(.number(Double(value))) }

    func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        try node.appended().write(value, codingPath: path)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        return ValueWriter(node: node.appended(), codingPath: path).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        return ValueWriter(node: node.appended(), codingPath: path).unkeyedContainer()
    }

    func superEncoder() -> any Encoder {
        let path = nextPath
        return ValueWriter(node: node.appended(), codingPath: path)
    }
}
