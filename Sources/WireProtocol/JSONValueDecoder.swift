/// Reads a `Decodable` value straight from a `JSONValue`, as `WireCodec.decoder` reads the same
/// value's text: snake_case keys read as camelCase properties (`WireKeyName`), a `[String: V]`
/// keeps its keys as sent, integers must be whole numbers that fit.
///
/// It is umctl's decoder. Foundation's `JSONDecoder` asks the runtime, for each new type it
/// meets, whether the type conforms to one of its marker protocols; the first such question
/// about a type scans every protocol conformance in the binary, which cost a short-lived
/// client more than the rest of its work. This one never casts to a protocol.
///
/// ```swift
/// let status = try JSONValueDecoder.decode(StatusDocument.self, from: result)
/// ```
public enum JSONValueDecoder {
    /// - throws: `DecodingError` whose context names the key path; `describe` words it.
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueReader(value: value, codingPath: []).read(T.self)
    }

    /// A failure in words: the key path as the wire spells it, then what was wrong
    /// (`"counters.requests": expected an integer, found a string`).
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func located(_ path: [any CodingKey], _ text: String) -> String {
            let name = path.map { $0.intValue.map { "[\($0)]" } ?? "." + WireKeyName.snakeCase($0.stringValue) }
                .joined(separator: "").drop(while: { $0 == "." })
            return name.isEmpty ? text : "\"\(name)\": \(text)"
        }
        switch error {
        case let .keyNotFound(key, context): return located(context.codingPath + [key], "missing")
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
            return located(context.codingPath, context.debugDescription)
        @unknown default: return "\(error)"
        }
    }
}

/// One value being read, with where it is; it is also its own single-value container. `JSONFields`
/// reads its leaves with it, so both readers word a wrong value alike.
struct ValueReader: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func read<T: Decodable>(_ type: T.Type) throws -> T {
        // A JSONValue member is already what it will be (`JSONValue.init(from:)` would rebuild it).
        if T.self == JSONValue.self, let value = value as? T { return value }
        return try T(from: self)
    }

    // MARK: - Failures

    private var found: String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): JSONWriter.text(number)
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// `valueNotFound` for null, `typeMismatch` for any other value of the wrong kind.
    func wrongKind(_ type: Any.Type, expected: String) -> DecodingError {
        let context = DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(found)")
        return value == .null ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }

    // MARK: - Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw wrongKind([String: JSONValue].self, expected: "an object") }
        guard !WireKeyName.isDictionaryKey(Key.self) else {
            return KeyedDecodingContainer(KeyedReader<Key>(members: members, codingPath: codingPath))
        }
        var named: [String: JSONValue] = [:]
        named.reserveCapacity(members.count)
        for (key, member) in members { named[WireKeyName.camelCase(key)] = member }
        return KeyedDecodingContainer(KeyedReader<Key>(members: named, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw wrongKind([JSONValue].self, expected: "an array") }
        return UnkeyedReader(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: - Single values

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw wrongKind(type, expected: "true or false") }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw wrongKind(type, expected: "a string") }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let number) = value else { throw wrongKind(type, expected: "a number") }
        return number
    }

    func decode(_ type: Float.Type) throws -> Float {
        let number = try decode(Double.self)
        guard Float(number).isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(found) does not fit in a Float"))
        }
        return Float(number)
    }

    /// A whole number that `I` holds exactly (`1.5` or `1e30` is not an Int).
    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .number(let number) = value else { throw wrongKind(type, expected: "an integer") }
        guard let whole = I(exactly: number) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath,
                                                    debugDescription: "expected an integer, found \(found)"))
        }
        return whole
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try read(type) }
}

/// An object's members, keyed as the type's properties are named.
private struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func reader(_ key: Key) throws -> ValueReader {
        guard let member = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return ValueReader(value: member, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try reader(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try reader(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try reader(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try reader(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try reader(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try reader(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try reader(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try reader(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try reader(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try reader(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try reader(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try reader(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try reader(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try reader(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try reader(key).integer(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try reader(key).read(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try reader(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try reader(key).unkeyedContainer() }

    func superDecoder() throws -> any Decoder {
        ValueReader(value: members["super"] ?? .null, codingPath: codingPath + [ElementKey(stringValue: "super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueReader(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

/// An array's elements, read in order; a failed read leaves the position where it was.
private struct UnkeyedReader: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private func reader(_ type: Any.Type) throws -> ValueReader {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [ElementKey(index: currentIndex)],
                                                          debugDescription: "the array has only \(elements.count) elements"))
        }
        return ValueReader(value: elements[currentIndex], codingPath: codingPath + [ElementKey(index: currentIndex)])
    }

    private mutating func next<T>(_ type: T.Type, _ body: (ValueReader) throws -> T) throws -> T {
        let value = try body(reader(type))
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard try reader(Never.self).decodeNil() else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.integer(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.read(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next((any UnkeyedDecodingContainer).self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder { try next(ValueReader.self) { $0 } }
}

/// A position in an array (`[3]`), or a key no type declares (`super`).
struct ElementKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init?(intValue: Int) { self.init(index: intValue) }
}
