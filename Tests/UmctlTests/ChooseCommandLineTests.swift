import Foundation
@testable import umctl
import WireProtocol
import XCTest

/// `umctl plan alternatives` ends with the line that takes each transit option as listed, each
/// word as a shell reads it back; a walk, bike or car list with the number form.
final class ChooseCommandLineTests: XCTestCase {
    func ride(_ trip: String?, at departure: String) -> RideDocument {
        RideDocument(line: "3", vehicle: "bus", headsign: "Hervanta", from: "Keskustori", to: "Hervanta",
                     departure: departure, arrival: "2022-01-12T08:30:00+02:00", tripID: trip)
    }

    func command(_ words: [String]) throws -> PlanAlternativesCommand {
        try XCTUnwrap(try CommandLineTool.command(["plan", "alternatives"] + words) as? PlanAlternativesCommand)
    }

    func testEachTransitOptionGetsItsOwnChooseLineWithItsDepartureAndTrips() throws {
        let first = LegDocument(durationS: 1_500, distanceM: nil, departure: "2022-01-12T08:05:10+02:00",
                                arrival: "2022-01-12T08:30:00+02:00", transfers: 1,
                                rides: [ride("A 1", at: "2022-01-12T08:08:00+02:00"), ride("B'2", at: "2022-01-12T08:20:00+02:00")])
        let second = LegDocument(durationS: 1_500, distanceM: nil, departure: "2022-01-12T08:15:00+02:00",
                                 arrival: "2022-01-12T08:40:00+02:00", transfers: 0, rides: [ride(nil, at: "2022-01-12T08:18:00+02:00")])
        let answer = AlternativesDocument(id: 4, segment: 2, mode: .transit, time: "2022-01-12T08:00:00+02:00",
                                          timeZone: "Europe/Helsinki", options: [first, second], day: "2022-01-12")
        let lines = try command(["4", "2", "--count", "7"]).render(answer).split(separator: "\n").suffix(3).map(String.init)
        XCTAssertEqual(lines, [
            "to take one (each line names its option, not its place in a list another edit may shift):",
            #"  umctl plan choose 4 2 1 --count 7 --departure 2022-01-12T08:05:10+02:00 --trip 'A 1' --trip 'B'\''2'"#,
            "  umctl plan choose 4 2 2 --count 7 --departure 2022-01-12T08:15:00+02:00",
        ])
    }

    func testTheWordsOfAPrintedLineAreWhatChooseReadsBack() throws {
        let leg = LegDocument(durationS: 600, distanceM: nil, departure: "2022-01-12T08:05:10+02:00",
                              arrival: "2022-01-12T08:15:10+02:00", transfers: 0, rides: [ride("T-1@08:10:00", at: "2022-01-12T08:10:00+02:00")])
        let words = ChooseCommandLine.words(plan: 4, segment: 2, option: 3, count: nil, leg: leg)
        let chosen = try XCTUnwrap(try CommandLineTool.command(Array(words.dropFirst())) as? PlanChooseCommand)
        XCTAssertEqual(chosen.edit, PlanEdit(Params.PlanChoose(id: 4, segment: 2, option: 3, departure: "2022-01-12T08:05:10+02:00",
                                                               tripIds: ["T-1@08:10:00"])))
    }

    func testAShellReadsEveryQuotedWordBackAsItWas() throws {
        let words = ["A 1", "B'2", "T-1@08:10:00", "$HOME", "", "tab\there", "*", "x'\u{301};echo injected;'\u{301}", "=ls"]
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "printf '%s\\n' " + words.map(ShellWord.quoted).joined(separator: " ")]
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        XCTAssertEqual(String(decoding: printed, as: UTF8.self), words.map { $0 + "\n" }.joined())
    }

    func testAStreetListIsChosenByNumber() throws {
        let leg = LegDocument(durationS: 600, distanceM: 4_000, departure: "2022-01-12T08:00:00+02:00",
                              arrival: "2022-01-12T08:10:00+02:00", transfers: 0, rides: [])
        let answer = AlternativesDocument(id: 4, segment: 1, mode: .car, time: nil, timeZone: "Europe/Helsinki", options: [leg, leg])
        XCTAssertTrue(try command(["4", "1"]).render(answer).hasSuffix("\n(umctl plan choose 4 1 N)"))
    }
}
