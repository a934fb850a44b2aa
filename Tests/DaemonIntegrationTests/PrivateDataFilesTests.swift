import Foundation
import Glibc
import TestSupport
import XCTest

/// What the daemon keeps about its user stays theirs: its files are 0600 whatever the folder's
/// mode or the umask it was started with, and what a killed write left behind is swept at start.
final class PrivateDataFilesTests: XCTestCase {
    /// usefulmapd under `umask 022`, as a manual start or `make demo` runs it.
    static let looseUmask = ["/bin/sh", "-c", "umask 022; exec \"$0\" \"$@\""]

    private func mode(_ url: URL) -> mode_t? {
        var info = stat()
        return stat(url.path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    func testTheDatabaseItsWALAndPlansICSAreOwnerOnlyInAnOpenFolderUnderUmask022() throws {
        let harness = try makeDaemon()
        XCTAssertEqual(chmod(harness.dataDirectory.path, 0o755), 0)
        try harness.start(launcher: Self.looseUmask)
        XCTAssertEqual(try harness.umctl(["place", "save", "Home", "61.49780,23.76100"]).status, 0)
        let names = ["usefulmap.sqlite", "usefulmap.sqlite-wal", "usefulmap.sqlite-shm", "plans.ics"]
        for _ in 0..<200 where names.contains(where: { mode(harness.dataDirectory.appendingPathComponent($0)) == nil }) {
            usleep(50_000)
        }
        for name in names {
            let found = mode(harness.dataDirectory.appendingPathComponent(name))
            XCTAssertEqual(found.map { String($0, radix: 8) }, "600", "\(name) is the user's alone")
        }
    }

    func testADatabaseLeftReadableByAnOlderVersionIsMadeOwnerOnlyAtStart() throws {
        let harness = try makeDaemon()
        try harness.start(launcher: Self.looseUmask)
        XCTAssertEqual(try harness.umctl(["place", "save", "Home", "61.49780,23.76100"]).status, 0)
        XCTAssertEqual(harness.stop(), 0)
        let database = harness.dataDirectory.appendingPathComponent("usefulmap.sqlite")
        XCTAssertEqual(chmod(database.path, 0o644), 0)
        try harness.start(launcher: Self.looseUmask)
        XCTAssertEqual(mode(database).map { String($0, radix: 8) }, "600")
        XCTAssertTrue(try harness.umctl(["place", "list"]).stdout.contains("Home"), "the places are still there")
    }

    func testATemporaryCalendarFileLeftByAKilledWriteIsRemovedAtStart() throws {
        let harness = try makeDaemon()
        let leftover = harness.dataDirectory.appendingPathComponent(".plans.ics.DEADBEEF")
        try Data("BEGIN:VCALENDAR\r\nhalf".utf8).write(to: leftover)
        let unrelated = harness.dataDirectory.appendingPathComponent(".notes.keep")
        try Data("mine".utf8).write(to: unrelated)
        try harness.start()
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover.path), "the partial temporary file is gone")
        XCTAssertTrue(FileManager.default.fileExists(atPath: unrelated.path), "a file not named like one stays")
    }
}
