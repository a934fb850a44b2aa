/// Which read of each key may still be kept: reads of one plan can finish out of order on the
/// store's reader threads, and only the last one begun is sure to see the newest commit (it
/// began after the change it was asked for was committed), so an older one is dropped.
struct NewestReads<Key: Hashable>: Sendable where Key: Sendable {
    struct Ticket: Equatable, Sendable { fileprivate let number: UInt64 }

    private var issued: UInt64 = 0
    private var newest: [Key: Ticket] = [:]

    /// Notes a read of `key` about to begin; it supersedes every read of `key` begun before.
    mutating func begin(_ key: Key) -> Ticket {
        issued += 1
        let ticket = Ticket(number: issued)
        newest[key] = ticket
        return ticket
    }

    /// Whether the read with `ticket` is the newest of `key` and its result may be kept; ends it.
    mutating func finish(_ ticket: Ticket, of key: Key) -> Bool {
        guard newest[key] == ticket else { return false }
        newest[key] = nil
        return true
    }

    /// Drops every read of `key` under way (the plan was deleted): none of them is kept.
    mutating func cancel(_ key: Key) { newest[key] = nil }
}
