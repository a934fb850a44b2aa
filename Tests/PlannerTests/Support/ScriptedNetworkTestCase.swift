import Foundation
@testable import Planner
import XCTest

/// Tests of single edits on the scripted network of `EditSequencePropertyTests` (walks at 80 m/min,
/// buses every 10 min), leaving an hour into its day: its planner, places and stops.
class ScriptedNetworkTestCase: XCTestCase {
    let planner = Planner(routing: EditSequencePropertyTests.Network(), clock: FixedClock(instant: EditSequencePropertyTests.dayStart))
    let leaving = TimePreference.departAt(EditSequencePropertyTests.dayStart.addingTimeInterval(3600))
    let places = EditSequencePropertyTests.places, stops = EditSequencePropertyTests.stops
}
