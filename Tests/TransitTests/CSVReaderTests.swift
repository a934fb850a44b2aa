import Foundation
@testable import Transit
import XCTest

/// The CSV reader against what real feeds contain, across chunk boundaries.
final class CSVReaderTests: XCTestCase {
    /// All records as strings, reading the input in chunks of every size from 1 to 7 bytes
    /// and in one piece; all readings must agree.
    private func records(_ text: String, bytes: [UInt8]? = nil) throws -> [[String]] {
        let input = bytes ?? Array(text.utf8)
        var results: [[[String]]] = []
        for chunk in [1, 2, 3, 5, 7, 1 << 16] {
            var reader = CSVReader(source: InMemoryChunkSource(input, chunkSize: chunk))
            var rows: [[String]] = []
            while let record = try reader.nextRecord() { rows.append((0..<record.count).map { record.string($0) }) }
            results.append(rows)
        }
        for other in results.dropFirst() { XCTAssertEqual(other, results[0]) }
        return results[0]
    }

    func testQuotedFieldsKeepCommasDoubledQuotesAndNewlines() throws {
        let rows = try records("a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\n")
        XCTAssertEqual(rows, [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"]])
    }

    func testByteOrderMarkIsSkippedSoTheFirstColumnNameIsFound() throws {
        let rows = try records("", bytes: [0xEF, 0xBB, 0xBF] + Array("stop_id,stop_name\n1,A\n".utf8))
        XCTAssertEqual(rows.first, ["stop_id", "stop_name"])
        let table = try GTFSTable(source: InMemoryChunkSource([0xEF, 0xBB, 0xBF] + Array("stop_id,stop_name\n1,A\n".utf8)),
                                  file: "stops.txt", feed: "f")
        XCTAssertEqual(table.column("stop_id"), 0)
    }

    func testCRLFLineEndsAndBlankLinesAndAMissingFinalNewline() throws {
        XCTAssertEqual(try records("a,b\r\n1,2\r\n\r\n\n3,4"), [["a", "b"], ["1", "2"], ["3", "4"]])
    }

    func testEmptyFieldsAndShortRowsReadAsEmpty() throws {
        let rows = try records("a,b,c\n1,,\n,2\n")
        XCTAssertEqual(rows, [["a", "b", "c"], ["1", "", ""], ["", "2"]])
        var reader = CSVReader(source: InMemoryChunkSource(Array("1,\n".utf8)))
        let record = try XCTUnwrap(try reader.nextRecord())
        XCTAssertNil(record.optionalString(1))
        XCTAssertNil(record.optionalString(7), "a column past the end of a short row is empty, not a crash")
        XCTAssertNil(record.int(1))
    }

    func testExtraAndReorderedColumnsAreFoundByName() throws {
        var table = try GTFSTable(source: InMemoryChunkSource(Array("zone,stop_name,extra,stop_id\nA,\"Keskustori, H\",x,0001\n".utf8)),
                                  file: "stops.txt", feed: "f")
        let id = try table.require("stop_id"), name = try table.require("stop_name")
        let row = try XCTUnwrap(try table.next())
        XCTAssertEqual(row.string(id), "0001")
        XCTAssertEqual(row.string(name), "Keskustori, H")
        XCTAssertThrowsError(try table.require("stop_lat")) { error in
            XCTAssertEqual((error as? TransitError)?.code, "missing_required_column")
        }
    }

    func testStrayQuoteInsideAnUnquotedFieldIsKeptLiterally() throws {
        XCTAssertEqual(try records("5\" screen,b\n"), [["5\" screen", "b"]])
    }

    func testUTF8NamesSurviveChunkBoundaries() throws {
        XCTAssertEqual(try records("Hämeenpuisto,Länsi-Hervanta,Särkänniemi\n"), [["Hämeenpuisto", "Länsi-Hervanta", "Särkänniemi"]])
    }

    func testGTFSTimesPast24HoursAndMalformedTimes() throws {
        var reader = CSVReader(source: InMemoryChunkSource(Array("25:10:00,7:05:09, 08:00:00 ,8:60:00,ab,,12:00\n".utf8)))
        let r = try XCTUnwrap(try reader.nextRecord())
        XCTAssertEqual(r.gtfsTime(0), 25 * 3600 + 600)
        XCTAssertEqual(r.gtfsTime(1), 7 * 3600 + 5 * 60 + 9)
        XCTAssertEqual(r.gtfsTime(2), 8 * 3600)
        XCTAssertNil(r.gtfsTime(3))
        XCTAssertNil(r.gtfsTime(4))
        XCTAssertNil(r.gtfsTime(5))
        XCTAssertNil(r.gtfsTime(6))
    }

    func testGTFSDatesBecomeDayNumbers() throws {
        var reader = CSVReader(source: InMemoryChunkSource(Array("20220112,19700101,20220230,2022011\n".utf8)))
        let r = try XCTUnwrap(try reader.nextRecord())
        XCTAssertEqual(r.gtfsDate(0).map(ServiceDate.iso), "2022-01-12")
        XCTAssertEqual(r.gtfsDate(1), 0)
        XCTAssertNil(r.gtfsDate(2), "30 February")
        XCTAssertNil(r.gtfsDate(3))
        XCTAssertEqual(r.gtfsDate(0).map(ServiceDate.weekday), 2, "2022-01-12 is a Wednesday")
    }

    func testRecordLongerThanTheLimitIsRefusedWithoutReadingTheRestOfIt() throws {
        let limit = 1_000
        for endless in [Array(repeating: UInt8(0), count: 4 << 20), Array(repeating: UInt8(ascii: ","), count: 4 << 20),
                        Array("\"".utf8) + Array(repeating: UInt8(ascii: "\n"), count: 4 << 20)] {
            let source = CountingChunkSource(Array("a,b\n1,2\n".utf8) + endless)
            var reader = CSVReader(source: source, maxRecordBytes: limit)
            XCTAssertEqual(try reader.nextRecord()?.string(0), "a")
            XCTAssertEqual(try reader.nextRecord()?.string(0), "1")
            XCTAssertThrowsError(try reader.nextRecord()) { error in
                XCTAssertEqual(error as? CSVReader.RecordTooLong, CSVReader.RecordTooLong(line: 3, limit: limit))
            }
            XCTAssertLessThanOrEqual(source.bytesHandedOut, 8 + limit + 64, "stops at the limit, not at the end of the line")
        }
        var fits = CSVReader(source: InMemoryChunkSource(Array((String(repeating: "x", count: 999) + "\n").utf8)), maxRecordBytes: limit)
        XCTAssertEqual(try fits.nextRecord()?.string(0).count, 999)
    }
}

/// Hands out 64-byte chunks and counts them.
private final class CountingChunkSource: ByteChunkSource {
    private let inner: InMemoryChunkSource
    private(set) var bytesHandedOut = 0

    init(_ bytes: [UInt8]) { inner = InMemoryChunkSource(bytes, chunkSize: 64) }

    func nextChunk() throws -> ArraySlice<UInt8>? {
        let chunk = try inner.nextChunk()
        bytesHandedOut += chunk?.count ?? 0
        return chunk
    }
}
