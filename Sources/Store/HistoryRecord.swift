import Foundation

/// A history entry with its number: the row's own number, which stays the entry's as long as
/// the entry is in the list (repeating an entry moves it to the front under a new number).
public struct HistoryRecord<Entry: Sendable & Hashable>: Sendable, Hashable {
    public var number: Int64
    public var entry: Entry

    public init(number: Int64, entry: Entry) {
        self.number = number
        self.entry = entry
    }
}
