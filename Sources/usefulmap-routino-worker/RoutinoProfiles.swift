/// Useful Map's own Routino profiles, written into the worker's private directory at start-up
/// so the binary needs no data files beside it. docs/streets.md justifies every number.
///
/// Routino caps each speed by the way's `maxspeed` tag, but it has no delay for junctions,
/// traffic lights or congestion; so the car speeds are typical *average* city speeds, not the
/// legal limits. The walking speed is a normal adult pace; `WalkingPace` scales it later.
/// The bicycle speeds are an everyday city rider's average with stops, not a sports pace.
/// The wheelchair profile is our walk with a wheelchair's everyday pace (4 km/h on paved ways,
/// slower on paths and tracks, which it avoids) and never steps: Routino's wheelchair transport
/// has no access to `highway=steps`, and the profile gives them neither speed nor preference.
///
/// The profiles are one table, a column each, so that what sets them apart is all that is written.
enum RoutinoProfiles {
    /// Profile names the worker protocol uses (`route walk …`, `route wheelchair …`, `route bike …`, `route car …`).
    static let walk = "walk"
    static let wheelchair = "wheelchair"
    static let bike = "bike"
    static let car = "car"

    /// The table's columns: each profile, Routino's transport for it, and whether it keeps to
    /// one-way streets and turn restrictions (a pedestrian, pushed or walking, does not).
    private static let columns: [(name: String, transport: String, obeysOnewayAndTurns: Bool)] = [
        (walk, "foot", false), (wheelchair, "wheelchair", false), (bike, "bicycle", true), (car, "motorcar", true),
    ]

    /// A way type's speed in km/h (0: never taken) and Routino's preference for it in percent.
    private struct Way {
        let kph: Int
        let percent: Int
        init(_ kph: Int, _ percent: Int) { self.kph = kph; self.percent = percent }
    }

    /// Per highway type, one `Way` per column:          walk        wheelchair  bike         car
    private static let highways: [(highway: String, ways: [Way])] = [
        ("motorway",     [Way(0, 0),   Way(0, 0),   Way(0, 0),   Way(100, 100)]),
        ("trunk",        [Way(5, 60),  Way(4, 50),  Way(16, 30), Way(80, 100)]),
        ("primary",      [Way(5, 80),  Way(4, 70),  Way(16, 70), Way(55, 95)]),
        ("secondary",    [Way(5, 85),  Way(4, 80),  Way(16, 80), Way(45, 90)]),
        ("tertiary",     [Way(5, 90),  Way(4, 85),  Way(16, 90), Way(40, 85)]),
        ("unclassified", [Way(5, 95),  Way(4, 90),  Way(16, 90), Way(35, 75)]),
        ("residential",  [Way(5, 100), Way(4, 100), Way(16, 90), Way(28, 65)]),
        ("service",      [Way(5, 95),  Way(4, 90),  Way(12, 80), Way(15, 40)]),
        ("track",        [Way(5, 90),  Way(2, 50),  Way(12, 80), Way(15, 10)]),
        ("cycleway",     [Way(5, 95),  Way(4, 90),  Way(18, 100), Way(0, 0)]),
        ("path",         [Way(5, 100), Way(3, 70),  Way(12, 90), Way(0, 0)]),
        ("steps",        [Way(3, 90),  Way(0, 0),   Way(0, 0),   Way(0, 0)]),
        ("ferry",        [Way(10, 20), Way(10, 20), Way(10, 20), Way(10, 20)]),
    ]

    /// Per way property, Routino's preference in percent for ways that have it, one per column.
    private static let properties: [(property: String, percents: [Int])] = [
        ("paved",        [50, 90, 60, 100]),
        ("multilane",    [50, 40, 25, 60]),
        ("bridge",       [50, 50, 50, 50]),
        ("tunnel",       [50, 50, 50, 50]),
        ("footroute",    [55, 55, 50, 45]),
        ("bicycleroute", [50, 50, 60, 45]),
    ]

    /// Routino's `profiles.xml` for the table.
    static let xml: String = {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<routino-profiles>\n"
        for (column, profile) in columns.enumerated() {
            text += "  <profile name=\"\(profile.name)\" transport=\"\(profile.transport)\">\n    <speeds>\n"
            for row in highways {
                text += "      <speed highway=\"\(row.highway)\" kph=\"\(row.ways[column].kph)\" />\n"
            }
            text += "    </speeds>\n    <preferences>\n"
            for row in highways {
                text += "      <preference highway=\"\(row.highway)\" percent=\"\(row.ways[column].percent)\" />\n"
            }
            text += "    </preferences>\n    <properties>\n"
            for row in properties {
                text += "      <property type=\"\(row.property)\" percent=\"\(row.percents[column])\" />\n"
            }
            let obey = profile.obeysOnewayAndTurns ? 1 : 0
            text += """
                </properties>
                <restrictions>
                  <oneway obey="\(obey)" />
                  <turns obey="\(obey)" />
                  <weight limit="0.0" />
                  <height limit="0.0" />
                  <width limit="0.0" />
                  <length limit="0.0" />
                </restrictions>
              </profile>

            """
        }
        return text + "</routino-profiles>\n"
    }()
}
