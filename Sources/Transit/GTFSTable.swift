import Foundation

/// One GTFS file of a feed: its header mapped to column positions, then records streamed.
/// Extra columns are ignored and columns may come in any order.
struct GTFSTable {
    let file: String
    let feed: String
    private var reader: CSVReader
    private let columns: [String: Int]
    private(set) var rowsRead = 0

    /// Opens `file` in `zip`; `nil` when the feed does not have it.
    init?(zip: ZipArchive, file: String, feed: String) throws {
        guard let member = try zip.open(member: file) else { return nil }
        try self.init(source: member, file: file, feed: feed)
    }

    init(source: any ByteChunkSource, file: String, feed: String) throws {
        self.file = file
        self.feed = feed
        reader = CSVReader(source: source)
        var columns: [String: Int] = [:]
        if let header = try reader.nextRecord() {
            for i in 0..<header.count {
                let name = header.string(i).trimmingCharacters(in: .whitespacesAndNewlines)
                if columns[name] == nil { columns[name] = i }
            }
        }
        self.columns = columns
    }

    /// Position of an optional column.
    func column(_ name: String) -> Int? { columns[name] }

    /// Position of a required column.
    /// - throws: `TransitError.missingRequiredColumn` naming the file and column.
    func require(_ name: String) throws -> Int {
        guard let index = columns[name] else {
            throw TransitError.missingRequiredColumn(feed: feed, file: file, column: name)
        }
        return index
    }

    mutating func next() throws -> CSVRecord? {
        guard let record = try reader.nextRecord() else { return nil }
        rowsRead += 1
        return record
    }
}
