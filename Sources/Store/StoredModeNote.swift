import Foundation
import Planner

/// A segment's mode note as stored (`plan_segment.mode_note_data`, migration 0020): the JSON of
/// `ModeNote`, its kind and figures, not its words.
enum StoredModeNote {
    static func encode(_ note: ModeNote) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(note), as: UTF8.self)
    }

    /// - throws: `StoreError.corruptRecord` for JSON that is no mode note (an unknown kind).
    static func decode(_ text: String) throws -> ModeNote {
        do {
            return try JSONDecoder().decode(ModeNote.self, from: Data(text.utf8))
        } catch {
            throw StoreError.corruptRecord("a segment's mode note is unreadable (\(error)): \(text.prefix(200))")
        }
    }
}
