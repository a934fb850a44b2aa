@testable import umctl
import XCTest

/// Which name umctl gives the machine's zone, from what the machine holds: `TZ`, the link
/// /etc/localtime is, else (a copy) the name /etc/timezone gives when the copy is that zone's
/// file, else the offset the C library converts with.
final class MachineZoneTests: XCTestCase {
    /// A machine without `TZ` whose /etc/localtime is a copy of Helsinki's file, at +02:00.
    func copiedHelsinki(etcTimezone: String?) -> MachineZone.Machine {
        MachineZone.Machine(variable: nil, localtimeLink: nil, etcTimezone: { etcTimezone },
                            isZone: { ["Europe/Helsinki", "Europe/Paris"].contains($0) },
                            localtimeIsCopy: { $0 == "Europe/Helsinki" }, offsetNow: 7_200)
    }

    func testACopiedLocaltimeIsNamedByEtcTimezoneWhenItIsThatZonesFile() {
        XCTAssertEqual(MachineZone.identifier(of: copiedHelsinki(etcTimezone: "Europe/Helsinki\n")), "Europe/Helsinki")
    }

    func testACopiedLocaltimeWithoutAMatchingNameIsNamedByItsOffsetNotUTC() {
        XCTAssertEqual(MachineZone.identifier(of: copiedHelsinki(etcTimezone: nil)), "UTC+02:00", "no /etc/timezone")
        XCTAssertEqual(MachineZone.identifier(of: copiedHelsinki(etcTimezone: "Europe/Paris\n")), "UTC+02:00",
                       "/etc/timezone names another zone than the copy holds")
        XCTAssertEqual(MachineZone.identifier(of: copiedHelsinki(etcTimezone: "Mars/Olympus")), "UTC+02:00", "no such zone")
    }

    func testALinkedLocaltimeIsNamedByItsTarget() {
        var machine = copiedHelsinki(etcTimezone: "Europe/Paris")
        machine.localtimeLink = "/usr/share/zoneinfo/Europe/Helsinki"
        XCTAssertEqual(MachineZone.identifier(of: machine), "Europe/Helsinki")
    }

    func testTZWinsWhenItNamesAZoneAndIsNamedByItsOffsetWhenItIsARule() {
        var machine = copiedHelsinki(etcTimezone: "Europe/Helsinki")
        machine.variable = ":Europe/Paris"
        XCTAssertEqual(MachineZone.identifier(of: machine), "Europe/Paris")
        machine.variable = "EET-2"
        XCTAssertEqual(MachineZone.identifier(of: machine), "UTC+02:00", "a rule, not the zone /etc/localtime holds")
        machine.variable = ""
        machine.offsetNow = 0
        XCTAssertEqual(MachineZone.identifier(of: machine), "UTC", "an empty TZ is UTC to the C library")
    }

    func testAFixedOffsetIsNamedWithHoursAndMinutes() {
        XCTAssertEqual(MachineZone.fixedName(offset: 0), "UTC")
        XCTAssertEqual(MachineZone.fixedName(offset: 20_700), "UTC+05:45")
        XCTAssertEqual(MachineZone.fixedName(offset: -12_600), "UTC-03:30")
        XCTAssertEqual(MachineZone.fixedName(offset: 36_000), "UTC+10:00")
    }
}
