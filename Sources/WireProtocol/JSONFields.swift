/// An object of an answer, read field by field under its wire names: the one decoder of the
/// documents that declare `init(_ fields: JSONFields)` (`status` and what it holds), whose
/// `init(from:)` hands over to it.
///
/// `Codable`'s synthesized decoding reaches each document type's keyed container by mangled
/// name at run time (`KeyedDecodingContainer<CodingKeys>`, its box class and witness tables),
/// and the keys are converted to property names into a new dictionary per object: for
/// `umctl status`, a short-lived process, that was most of its own work (issue 26). This reads
/// the parsed members as they are, with no generic container, and words every failure as
/// `JSONValueDecoder` does (its leaves are read by the same `ValueReader`), so
/// `JSONValueDecoder.describe` names the key path alike.
///
/// ```swift
/// extension CountDocument {
///     public init(_ fields: JSONFields) throws {
///         self.init(name: try fields.string("name"), count: try fields.int("count"))
///     }
/// }
/// ```
/// Optional fields read as `decodeIfPresent` does: absent or null is nil, another kind is refused.
public struct JSONFields {
    let members: [String: JSONValue]
    /// Makes this object's coding path when a failure names it: a path made for every nested
    /// object (an array of `any CodingKey`, the first of them with its run-time type) cost a
    /// whole `umctl status` 2.5 % and is almost never read.
    private let pathHere: () -> [any CodingKey]
    var codingPath: [any CodingKey] { pathHere() }

    /// - throws: `DecodingError` when `value` is not an object.
    public init(_ value: JSONValue, codingPath: [any CodingKey] = []) throws {
        try self.init(value, path: { codingPath })
    }

    private init(_ value: JSONValue, path: @escaping () -> [any CodingKey]) throws {
        guard case .object(let members) = value else {
            throw ValueReader(value: value, codingPath: path()).wrongKind([String: JSONValue].self, expected: "an object")
        }
        self.members = members
        pathHere = path
    }

    /// The value a `Decoder` is at: as it is from `JSONValueDecoder` (no copy, no cast to a
    /// protocol), read into a `JSONValue` from any other decoder (Foundation's in tests).
    public init(_ decoder: any Decoder) throws {
        if let reader = decoder as? ValueReader {
            try self.init(reader.value, codingPath: reader.codingPath)
        } else {
            try self.init(try decoder.singleValueContainer().decode(JSONValue.self), codingPath: decoder.codingPath)
        }
    }

    // MARK: - Members

    private func path(_ key: String) -> [any CodingKey] { codingPath + [ElementKey(stringValue: key)] }

    /// `path(key)`, made when called.
    private func pathMaker(_ key: String) -> () -> [any CodingKey] { { path(key) } }

    /// The member under `key`. - throws: `keyNotFound` when it is absent.
    private func requiredValue(_ key: String) throws -> JSONValue {
        guard let member = members[key] else {
            throw DecodingError.keyNotFound(ElementKey(stringValue: key), .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return member
    }

    /// The member under `key`, nil when it is absent or null.
    private func presentValue(_ key: String) -> JSONValue? {
        guard let member = members[key], member != .null else { return nil }
        return member
    }

    private func required(_ key: String) throws -> ValueReader {
        ValueReader(value: try requiredValue(key), codingPath: path(key))
    }

    /// Nil when the key is absent or null.
    private func present(_ key: String) -> ValueReader? {
        presentValue(key).map { ValueReader(value: $0, codingPath: path(key)) }
    }

    // MARK: - Single values
    // A member of the expected kind is taken at once; any other goes through `ValueReader`,
    // which names its path (made only then: an array per field read cost more than the read).

    public func string(_ key: String) throws -> String {
        if case .string(let text)? = members[key] { return text }
        return try required(key).decode(String.self)
    }

    public func optionalString(_ key: String) throws -> String? {
        if case .string(let text)? = members[key] { return text }
        return try present(key)?.decode(String.self)
    }

    public func bool(_ key: String) throws -> Bool {
        if case .bool(let flag)? = members[key] { return flag }
        return try required(key).decode(Bool.self)
    }

    public func optionalBool(_ key: String) throws -> Bool? {
        if case .bool(let flag)? = members[key] { return flag }
        return try present(key)?.decode(Bool.self)
    }

    public func double(_ key: String) throws -> Double {
        if case .number(let number)? = members[key] { return number }
        return try required(key).decode(Double.self)
    }

    public func int(_ key: String) throws -> Int {
        if case .number(let number)? = members[key], let whole = Int(exactly: number) { return whole }
        return try required(key).integer(Int.self)
    }

    public func optionalInt(_ key: String) throws -> Int? {
        if case .number(let number)? = members[key], let whole = Int(exactly: number) { return whole }
        return try present(key)?.integer(Int.self)
    }

    public func int64(_ key: String) throws -> Int64 {
        if case .number(let number)? = members[key], let whole = Int64(exactly: number) { return whole }
        return try required(key).integer(Int64.self)
    }

    public func optionalInt64(_ key: String) throws -> Int64? {
        if case .number(let number)? = members[key], let whole = Int64(exactly: number) { return whole }
        return try present(key)?.integer(Int64.self)
    }

    /// A member of a type that keeps its own `Decodable` (a `WireError`), read with `JSONValueDecoder`.
    public func optionalDecoded<T: Decodable>(_ key: String, as type: T.Type) throws -> T? {
        try present(key)?.read(T.self)
    }

    // MARK: - Objects and arrays

    public func object<T>(_ key: String, _ read: (JSONFields) throws -> T) throws -> T {
        try read(JSONFields(requiredValue(key), path: pathMaker(key)))
    }

    public func optionalObject<T>(_ key: String, _ read: (JSONFields) throws -> T) throws -> T? {
        guard let member = presentValue(key) else { return nil }
        return try read(JSONFields(member, path: pathMaker(key)))
    }

    public func objects<T>(_ key: String, _ read: (JSONFields) throws -> T) throws -> [T] {
        try Self.elements(of: requiredValue(key), path: pathMaker(key)) { element, path in try read(JSONFields(element, path: path)) }
    }

    public func optionalObjects<T>(_ key: String, _ read: (JSONFields) throws -> T) throws -> [T]? {
        guard let member = presentValue(key) else { return nil }
        return try Self.elements(of: member, path: pathMaker(key)) { element, path in try read(JSONFields(element, path: path)) }
    }

    public func optionalDoubles(_ key: String) throws -> [Double]? {
        guard let member = presentValue(key) else { return nil }
        return try Self.elements(of: member, path: pathMaker(key)) { element, path in
            if case .number(let number) = element { return number }
            return try ValueReader(value: element, codingPath: path()).decode(Double.self)
        }
    }

    public func int64s(_ key: String) throws -> [Int64] {
        try Self.elements(of: requiredValue(key), path: pathMaker(key)) { element, path in
            if case .number(let number) = element, let whole = Int64(exactly: number) { return whole }
            return try ValueReader(value: element, codingPath: path()).integer(Int64.self)
        }
    }

    /// An object of counts whose keys are data (`unknown_trip`), kept as sent.
    public func counts(_ key: String) throws -> [String: Int] {
        let object = try JSONFields(requiredValue(key), path: pathMaker(key))
        var counts: [String: Int] = [:]
        counts.reserveCapacity(object.members.count)
        for (name, value) in object.members {
            if case .number(let number) = value, let whole = Int(exactly: number) {
                counts[name] = whole
            } else {
                counts[name] = try ValueReader(value: value, codingPath: object.path(name)).integer(Int.self)
            }
        }
        return counts
    }

    /// Each element read with its path, made only when asked for (an object's, a failure's).
    private static func elements<T>(of array: JSONValue, path: @escaping () -> [any CodingKey],
                                    _ read: (JSONValue, @escaping () -> [any CodingKey]) throws -> T) throws -> [T] {
        guard case .array(let elements) = array else {
            throw ValueReader(value: array, codingPath: path()).wrongKind([JSONValue].self, expected: "an array")
        }
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            result.append(try read(element) { path() + [ElementKey(index: index)] })
        }
        return result
    }
}
