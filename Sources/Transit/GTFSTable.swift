import Foundation

/// One GTFS file of a feed: its header mapped to column positions, then records streamed.
/// Extra columns are ignored and columns may come in any order.
struct GTFSTable {
    let file: String
    let feed: String
    private var reader: CSVReader
    private let columns: [String: Int]
    private let memory: ImportMemoryBudget?
    private(set) var rowsRead = 0
    /// Rows between two looks at the process's memory.
    private static let memoryCheckInterval = 4096

    /// Opens `file` in `zip`; `nil` when the feed does not have it.
    init?(zip: ZipArchive, file: String, feed: String, memory: ImportMemoryBudget? = nil) throws {
        guard let member = try zip.open(member: file) else { return nil }
        try self.init(source: member, file: file, feed: feed, maxLineBytes: zip.limits.maxLineBytes, memory: memory)
    }

    init(source: any ByteChunkSource, file: String, feed: String,
         maxLineBytes: Int = GTFSLimits().maxLineBytes, memory: ImportMemoryBudget? = nil) throws {
        self.file = file
        self.feed = feed
        self.memory = memory
        reader = CSVReader(source: source, maxRecordBytes: maxLineBytes)
        var columns: [String: Int] = [:]
        if let header = try Self.record(from: &reader, file: file, feed: feed) {
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

    /// The next row.
    /// - throws: `TransitError.limitExceeded` for a line over the limit, or when the import has
    ///   grown past its memory budget; the reader's and the zip's errors.
    mutating func next() throws -> CSVRecord? {
        guard let record = try Self.record(from: &reader, file: file, feed: feed) else { return nil }
        rowsRead += 1
        if rowsRead % Self.memoryCheckInterval == 0 { try memory?.check(feed: feed, file: file) }
        return record
    }

    private static func record(from reader: inout CSVReader, file: String, feed: String) throws -> CSVRecord? {
        do {
            return try reader.nextRecord()
        } catch let error as CSVReader.RecordTooLong {
            throw TransitError.limitExceeded(feed: feed, file: file, limit: .lineLength(limit: error.limit, line: error.line))
        }
    }
}
