import Foundation
import XCTest
@testable import Planner

/// A mode note's words give the figures of what they sit under or say what they are of (issue
/// 39, trial 54 finding T4): no figure is made up to fit the claim, and a walk judged and not
/// shown reads as `compare` shows it.
final class ModeNoteWordsTests: XCTestCase {
    private let leaving = Date(timeIntervalSince1970: 1_641_970_800)  // 2022-01-12 09:00 in Helsinki

    private func walk(_ seconds: TimeInterval) -> RouteLeg {
        RouteLeg(mode: .walk, expectedTravelTime: seconds, distance: seconds * 1.3, geometry: [])
    }

    /// A walk noted no slower than an 11-minute ride, now shown as a 13-minute walk, said
    /// "transit (13 min door to door)": the ride's figure was raised to the walk's. It says nothing
    /// of that walk now (kept until judged again), and its true figures of the walk it was judged on.
    func testAWalkSlowerThanTheRideItWasJudgedAgainstSaysNothingRatherThanRaiseTheRide() {
        let note = ModeNote(.walkedNoSlower, walking: 600, riding: 660, from: leaving)
        XCTAssertNil(note.words(mode: .walk, leg: walk(780), leaving: leaving, arriving: leaving.addingTimeInterval(780)))
        XCTAssertEqual(note.words(mode: .walk, leg: walk(600), leaving: leaving, arriving: leaving.addingTimeInterval(600)),
                       "walked: walking (10 min) is no slower than transit (11 min door to door from when the walk leaves, "
                        + "the wait for the ride included)")
    }

    /// A ride's walk figure is the walk as `compare` shows it asked at a whole minute: 58 min 50 s
    /// is 58 min whenever the ride was judged (judged at 09:00:30 it read 59).
    func testARidesWalkingFigureIsTheWalkAsCompareShowsIt() {
        let judged = leaving.addingTimeInterval(30)
        let note = ModeNote(.riddenFaster, walking: 3_530, riding: 960, from: judged)
        let ride = RouteLeg(mode: .transit, expectedTravelTime: 900, distance: 4_800, departure: judged.addingTimeInterval(60),
                            arrival: judged.addingTimeInterval(960), geometry: [])
        XCTAssertEqual(note.words(mode: .transit, leg: ride, leaving: judged.addingTimeInterval(60), arriving: judged.addingTimeInterval(960)),
                       "by transit: 15 min door to door from its departure (walks and waits included) where walking takes 58 min")
    }

    /// A walk timed back to a pin was judged from when the traveller was at its start, before it
    /// leaves: the ride's figure says from when it counts.
    func testAWalksRideJudgedFromAnotherMomentSaysWhich() {
        let note = ModeNote(.walkedNoSlower, walking: 600, riding: 900, from: leaving)
        let later = leaving.addingTimeInterval(300)
        XCTAssertEqual(note.words(mode: .walk, leg: walk(600), leaving: later, arriving: later.addingTimeInterval(600)),
                       "walked: walking (10 min) is no slower than transit (15 min door to door from 5 min before the walk leaves, "
                        + "the wait for the ride included)")
    }

    /// The user's ride judged from when the traveller can leave its start says the wait it counts:
    /// door to door less the wait is the ride's own minutes.
    func testAUsersRideSaysTheWaitItsDoorToDoorCounts() {
        let note = ModeNote(.riddenWalkingNoSlower, walking: 900, riding: 1_080, from: leaving)
        let departure = leaving.addingTimeInterval(180)
        let ride = RouteLeg(mode: .transit, expectedTravelTime: 900, distance: 1_600, departure: departure,
                            arrival: leaving.addingTimeInterval(1_080), geometry: [])
        XCTAssertEqual(note.words(mode: .transit, leg: ride, leaving: departure, arriving: ride.arrival),
                       "walking (15 min) is no slower than transit (18 min door to door, its 3 min wait before it leaves included)")
    }

    /// A note judged over a hop (session 59: from Pyynikintori to Hämeenpuisto, its ride one stop
    /// of bus 8 between two stops inferred for it) gives the hop's door to door as shown, from
    /// leaving its first place to arriving at its last, and names it; a user's ride so judged
    /// names it too; a walk's own minutes are no figure of a larger ground, and say nothing.
    func testANoteJudgedOverAHopGivesTheHopsFiguresAndNamesThem() {
        let judged = leaving.addingTimeInterval(128)  // 09:02:08, the hop leaves Pyynikintori
        let ride = RouteLeg(mode: .transit, expectedTravelTime: 60, distance: 330, departure: judged.addingTimeInterval(67),
                            arrival: judged.addingTimeInterval(127), geometry: [])
        let hop = ModeNote.ShownGround(from: "Pyynikintori", to: "Hämeenpuisto", leaving: judged, arriving: judged.addingTimeInterval(385))
        let faster = ModeNote(.riddenFaster, walking: 470, riding: 400, from: judged)
        XCTAssertEqual(faster.words(mode: .transit, leg: ride, leaving: ride.departure, arriving: ride.arrival, ground: hop),
                       "by transit: 6 min door to door from Pyynikintori to Hämeenpuisto (walks and waits included) where walking takes 7 min")
        // Shown slower than the walk it was judged against: nothing, until judged again.
        var later = hop
        later.arriving = judged.addingTimeInterval(600)
        XCTAssertNil(faster.words(mode: .transit, leg: ride, leaving: ride.departure, arriving: ride.arrival, ground: later))
        let users = ModeNote(.riddenWalkingNoSlower, walking: 400, riding: 420, from: judged)
        XCTAssertEqual(users.words(mode: .transit, leg: ride, leaving: ride.departure, arriving: ride.arrival, ground: hop),
                       "walking from Pyynikintori to Hämeenpuisto (6 min) is no slower than transit (7 min door to door from when you "
                        + "are at Pyynikintori, walks and waits included)")
        let walked = ModeNote(.walkedNoSlower, walking: 300, riding: 420, from: judged)
        XCTAssertNil(walked.words(mode: .walk, leg: walk(300), leaving: judged, arriving: judged.addingTimeInterval(300), ground: hop))
    }
}
