import Foundation

/// One call of a vehicle trip at a stop, with its times as the engine has them (live when a
/// realtime feed gives them): what `RoutingPort.calls(ofTripOf:)` answers, so that the planner
/// can board (leave) a ride's trip at the stop of it that suits the traveller best.
public struct TripCall: Hashable, Sendable {
    public var stopID: String?
    public var name: String
    public var coordinate: Coordinate
    public var arrival: Date
    public var departure: Date
    /// False where the timetable lets nobody on (off): a drop-off-only (pick-up-only) call.
    public var canBoard: Bool
    public var canAlight: Bool

    public init(stopID: String?, name: String, coordinate: Coordinate, arrival: Date, departure: Date,
                canBoard: Bool = true, canAlight: Bool = true) {
        self.stopID = stopID
        self.name = name
        self.coordinate = coordinate
        self.arrival = arrival
        self.departure = departure
        self.canBoard = canBoard
        self.canAlight = canAlight
    }

    /// The call as a place a plan can walk to.
    public var place: Place { Place(name: name, coordinate: coordinate, kind: .transitStop) }
}
