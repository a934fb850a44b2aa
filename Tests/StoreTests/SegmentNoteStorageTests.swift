import Foundation
import Planner
import SQLite
@testable import Store
import TestSupport
import XCTest

/// What a segment says (migration 0018, issue 39 item 3): why it has its mode and why it has no
/// leg are stored with the plan, by segment, and read back as they were; a plan stored before
/// the columns reads with nothing to say.
final class SegmentNoteStorageTests: XCTestCase {
    var directory: TemporaryDirectory!
    var path: String { directory.path("usefulmap.sqlite") }

    override func setUpWithError() throws { directory = try TemporaryDirectory("notes") }
    override func tearDown() { directory.remove() }

    static let home = Place(name: "Home", coordinate: Coordinate(latitude: 61.4981, longitude: 23.761), kind: .address)
    static let shop = Place(name: "Shop", coordinate: Coordinate(latitude: 61.4918, longitude: 23.7639))
    static let office = Place(name: "Office", coordinate: Coordinate(latitude: 61.45, longitude: 23.85))
    static let walkedNoSlower = ModeNote(.walkedNoSlower, walking: 600, riding: 840, from: Date(timeIntervalSinceReferenceDate: 663_660_000))

    /// A database migrated only through the first `count` steps, holding what `sql` inserts: a
    /// plan stored by an older daemon.
    func storeAfterMigrations(_ count: Int, _ sql: String) throws {
        let db = try Database(path: path)
        defer { db.close() }
        try db.configure(.userData)
        try Migrator(migrations: Array(Migration.embedded.prefix(count)), path: path).migrate(db)
        try db.execute(sql)
    }

    func testASegmentsModeNoteAndRoutingErrorRoundTrip() throws {
        let store = try Store(path: path)
        let nodes = [PlanNode(place: Self.home), PlanNode(place: Self.shop), PlanNode(place: Self.office)]
        let keys = try RoutePlan(nodes: nodes, modes: [.walk, .transit]).segmentKeys
        let walk = RouteLeg(mode: .walk, expectedTravelTime: 600, distance: 700, geometry: [Self.home.coordinate, Self.shop.coordinate])
        let plan = try RoutePlan(restoring: nodes, modes: [.walk, .transit], legs: [walk, nil], timePreference: .leaveNow,
                                 pace: .normal, locks: [keys[1]: SegmentLock(mode: .transit)], pins: [], pending: [:],
                                 notes: [keys[0]: SegmentNote(mode: Self.walkedNoSlower),
                                         keys[1]: SegmentNote(errorCode: "no_route", errorMessage: "no transit journey found")])
        let id = try store.write(Plans.create(plan, title: "errands"))
        let loaded = try store.read(Plans.load(id)).plan
        XCTAssertEqual(loaded, plan)
        XCTAssertEqual(loaded.note(ofSegment: 0)?.mode, Self.walkedNoSlower)
        XCTAssertEqual(loaded.note(ofSegment: 1), SegmentNote(errorCode: "no_route", errorMessage: "no transit journey found"))
        // Saved again with nothing to say: the notes go.
        try store.write(Plans.save(id: id, plan: try RoutePlan(restoring: nodes, modes: [.walk, .transit], legs: [walk, nil],
                                                               timePreference: .leaveNow, pace: .normal, locks: [:], pins: [],
                                                               pending: [:]),
                                   title: "errands", generation: 2))
        XCTAssertEqual(try store.read(Plans.load(id)).plan.notes, [:])
    }

    func testAPlanStoredBeforeTheColumnsHasNothingToSay() throws {
        try storeAfterMigrations(17, """
            INSERT INTO plan(title, time_preference, pace, from_name, to_name, created_at, updated_at)
            VALUES ('before', 'leave_now', 'normal', 'Home', 'Office', 700000000, 700000000);
            INSERT INTO plan_node(plan_id, position, place_name, latitude, longitude, kind, is_inferred, is_current_location)
            VALUES (1, 0, 'Home', 61.4981, 23.761, 'address', 0, 0), (1, 1, 'Office', 61.45, 23.85, 'address', 0, 0);
            INSERT INTO plan_segment(plan_id, position, mode) VALUES (1, 0, 'walk');
            """)
        let store = try Store(path: path)
        let loaded = try store.read(Plans.load(1)).plan
        XCTAssertEqual(loaded.modes, [.walk])
        XCTAssertEqual(loaded.notes, [:])
    }

    /// A note kept as judged is stored whether or not it reads true of its leg now: a ride judged
    /// faster than a 10-minute walk, now a 30-minute ride, says nothing, and is still the
    /// planner's reason after a restart (session 54: a silenced note was lost).
    func testANoteThatSaysNothingOfItsLegNowIsStoredAllTheSame() throws {
        let store = try Store(path: path)
        let nodes = [PlanNode(place: Self.home), PlanNode(place: Self.office)]
        let key = try RoutePlan(nodes: nodes, modes: [.transit]).segmentKeys[0]
        let leaving = Date(timeIntervalSinceReferenceDate: 663_660_000)
        let ride = RouteLeg(mode: .transit, expectedTravelTime: 1_800, distance: 9_000, departure: leaving,
                            arrival: leaving.addingTimeInterval(1_800), geometry: [Self.home.coordinate, Self.office.coordinate])
        let judged = ModeNote(.riddenFaster, walking: 600, riding: 480, from: leaving)
        let plan = try RoutePlan(restoring: nodes, modes: [.transit], legs: [ride], timePreference: .departAt(leaving),
                                 pace: .normal, locks: [:], pins: [], pending: [:], notes: [key: SegmentNote(mode: judged)])
        XCTAssertNil(plan.modeNote(ofSegment: 0), "a 30-minute ride is not faster than a 10-minute walk")
        let id = try store.write(Plans.create(plan, title: "kept"))
        let loaded = try store.read(Plans.load(id)).plan
        XCTAssertEqual(loaded.note(ofSegment: 0)?.mode, judged)
        XCTAssertNil(loaded.modeNote(ofSegment: 0))
    }

    /// A note stored as words before migration 0020 reads as it was, with the kind its words
    /// began with: a walk the walk rule chose stays the planner's, judged again when it moves.
    func testANoteStoredAsWordsBeforeItWasDataReadsAsItWasWithItsKind() throws {
        try storeAfterMigrations(19, """
            INSERT INTO plan(title, time_preference, pace, from_name, to_name, created_at, updated_at)
            VALUES ('before', 'leave_now', 'normal', 'Home', 'Office', 700000000, 700000000);
            INSERT INTO plan_node(plan_id, position, place_name, latitude, longitude, kind, is_inferred, is_current_location)
            VALUES (1, 0, 'Home', 61.4981, 23.761, 'address', 0, 0), (1, 1, 'Shop', 61.4918, 23.7639, 'address', 0, 0),
            (1, 2, 'Office', 61.45, 23.85, 'address', 0, 0);
            INSERT INTO plan_segment(plan_id, position, mode, mode_note)
            VALUES (1, 0, 'walk', 'walked: walking (10 min) is no slower than transit (14 min)'),
            (1, 1, 'transit', 'by transit: 12 min door to door (walks and waits included) where walking takes 28 min');
            """)
        let loaded = try Store(path: path).read(Plans.load(1)).plan
        XCTAssertEqual(loaded.note(ofSegment: 0)?.mode?.kind, .walkedNoSlower)
        XCTAssertEqual(loaded.note(ofSegment: 1)?.mode?.kind, .riddenFaster)
        XCTAssertEqual(loaded.modeNotes, ["walked: walking (10 min) is no slower than transit (14 min)",
                                          "by transit: 12 min door to door (walks and waits included) where walking takes 28 min"])
        XCTAssertTrue(loaded.isPlannersWalk(segment: 0))
    }

    /// A note keeps the ground it was judged over (session 59): a hop from Home to Office judged
    /// and noted on its ride to a stop inferred for it reads back with that ground, and says the
    /// hop's figures; a note a daemon stored before grounds were kept (its JSON without one) is of
    /// the segment it sits under, as it was.
    func testANotesGroundRoundTripsAndOneStoredWithoutItIsOfItsSegment() throws {
        let store = try Store(path: path)
        let nodes = [PlanNode(place: Self.home), PlanNode(place: Self.shop, isInferred: true), PlanNode(place: Self.office)]
        let keys = try RoutePlan(nodes: nodes, modes: [.transit, .walk]).segmentKeys
        let leaving = Date(timeIntervalSinceReferenceDate: 663_660_000)
        let hop = ModeNote(.riddenFaster, walking: 1_800, riding: 900, from: leaving,
                           ground: ModeNote.Ground(fromID: Self.home.id, toID: Self.office.id))
        let plan = try RoutePlan(restoring: nodes, modes: [.transit, .walk], legs: [nil, nil], timePreference: .departAt(leaving),
                                 pace: .normal, locks: [:], pins: [], pending: [:], notes: [keys[0]: SegmentNote(mode: hop)])
        let id = try store.write(Plans.create(plan, title: "hop"))
        let loaded = try store.read(Plans.load(id)).plan
        XCTAssertEqual(loaded.note(ofSegment: 0)?.mode, hop)
        XCTAssertEqual(loaded.modeNotes[0], "by transit: 15 min door to door from Home to Office (walks and waits included) "
                       + "where walking takes 30 min")

        let older = try StoredModeNote.decode(#"{"from":663660000,"kind":"ridden_faster","riding":900,"walking":1800}"#)
        XCTAssertNil(older.ground)
        let before = try RoutePlan(restoring: nodes, modes: [.transit, .walk], legs: [nil, nil], timePreference: .departAt(leaving),
                                   pace: .normal, locks: [:], pins: [], pending: [:], notes: [keys[0]: SegmentNote(mode: older)])
        XCTAssertEqual(before.modeNotes[0], "by transit: 15 min door to door from its departure (walks and waits included) "
                       + "where walking takes 30 min")
    }
}
