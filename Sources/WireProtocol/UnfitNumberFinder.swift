/// Foundation's JSONDecoder reports a number that an integer param cannot hold (`{"id": 1.5}`,
/// `{"segment": 1e30}`) as "The given data was not valid JSON.", naming neither the param nor
/// the fault. This finds the param: each such number is tried as a string in turn, and the one
/// the decoder then calls ill-typed at its own place is it.
enum UnfitNumberFinder {
    private enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    /// "param "id" must be an integer, got 1.5", or nil when no number explains the failure.
    static func message<T: Decodable>(params: JSONValue, as type: T.Type) -> String? {
        for (path, number) in unfitNumbers(in: params, at: []) {
            do {
                _ = try replacing(path, in: params).decode(as: T.self)
            } catch DecodingError.typeMismatch(let wanted, let context) where steps(context.codingPath) == path {
                let name = path.map { step in
                    switch step {
                    case .key(let key): key
                    case .index(let index): "[\(index)]"
                    }
                }.joined(separator: ".").replacing(".[", with: "[")
                return "param \"\(name)\" must be \(WireCodec.typeName(wanted)), got \(text(number))"
            } catch {}
        }
        return nil
    }

    private static func text(_ number: Double) -> String {
        String(decoding: JSONWriter.data(.number(number)), as: UTF8.self)
    }

    /// Every number no Int64 holds exactly, with where it is.
    private static func unfitNumbers(in value: JSONValue, at path: [Step]) -> [([Step], Double)] {
        switch value {
        case .number(let number): Int64(exactly: number) == nil ? [(path, number)] : []
        case .array(let elements):
            elements.enumerated().flatMap { unfitNumbers(in: $0.element, at: path + [.index($0.offset)]) }
        case .object(let members):
            members.sorted { $0.key < $1.key }.flatMap { unfitNumbers(in: $0.value, at: path + [.key($0.key)]) }
        case .null, .bool, .string: []
        }
    }

    /// `value` with the number at `path` written as a string.
    private static func replacing(_ path: [Step], in value: JSONValue) -> JSONValue {
        guard let first = path.first else {
            if case .number(let number) = value { return .string(text(number)) }
            return value
        }
        let rest = Array(path.dropFirst())
        switch (first, value) {
        case (.key(let key), .object(var members)):
            members[key] = members[key].map { replacing(rest, in: $0) }
            return .object(members)
        case (.index(let index), .array(var elements)) where elements.indices.contains(index):
            elements[index] = replacing(rest, in: elements[index])
            return .array(elements)
        default:
            return value
        }
    }

    /// A decoder's coding path in wire names (snake_case keys, as the request spelled them).
    private static func steps(_ keys: [CodingKey]) -> [Step] {
        keys.map { key in key.intValue.map { .index($0) } ?? .key(WireCodec.snakeCase(key.stringValue)) }
    }
}
