import Synchronization

/// The members each params type reads, learnt once per type, so that refusing unknown params
/// costs a set lookup per member instead of encoding every request's params again.
///
/// A member is known to a type when a value of it wrote that member back (`JSONValueEncoder`,
/// as umctl spells it): what the type writes it reads. Only a request with a member not yet
/// known encodes its params, as every request once did; the names it wrote are kept. So the
/// answer is the same as encoding each time, and a type's names are learnt after its first
/// requests (an optional member absent from those is learnt when it first comes).
enum ParamsMemberNames {
    private static let known = Mutex<[ObjectIdentifier: Set<String>]>([:])

    /// The members of `given` (by name; a member given as null is absent) that `params`, read
    /// from them, does not take, sorted; empty when it takes them all.
    static func unknown(_ given: [String: JSONValue], readAs params: some Decodable) -> [String] {
        let names = given.filter { $0.value != .null }.keys
        guard !names.isEmpty else { return [] }
        let type = ObjectIdentifier(Swift.type(of: params))
        let allKnown = known.withLock { known in known[type].map { set in names.allSatisfy(set.contains) } ?? false }
        if allKnown { return [] }
        guard let encodable = params as? any Encodable,
              case .object(let written)? = try? JSONValueEncoder.encode(encodable) else { return [] }
        known.withLock { $0[type, default: []].formUnion(written.keys) }
        return names.filter { written[$0] == nil }.sorted()
    }
}
