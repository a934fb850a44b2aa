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
enum RoutinoProfiles {
    /// Profile names the worker protocol uses (`route walk …`, `route wheelchair …`, `route bike …`, `route car …`).
    static let walk = "walk"
    static let wheelchair = "wheelchair"
    static let bike = "bike"
    static let car = "car"

    static let xml = """
    <?xml version="1.0" encoding="UTF-8" ?>
    <routino-profiles>
      <profile name="walk" transport="foot">
        <speeds>
          <speed highway="motorway"      kph="0" />
          <speed highway="trunk"         kph="5" />
          <speed highway="primary"       kph="5" />
          <speed highway="secondary"     kph="5" />
          <speed highway="tertiary"      kph="5" />
          <speed highway="unclassified"  kph="5" />
          <speed highway="residential"   kph="5" />
          <speed highway="service"       kph="5" />
          <speed highway="track"         kph="5" />
          <speed highway="cycleway"      kph="5" />
          <speed highway="path"          kph="5" />
          <speed highway="steps"         kph="3" />
          <speed highway="ferry"         kph="10" />
        </speeds>
        <preferences>
          <preference highway="motorway"      percent="0" />
          <preference highway="trunk"         percent="60" />
          <preference highway="primary"       percent="80" />
          <preference highway="secondary"     percent="85" />
          <preference highway="tertiary"      percent="90" />
          <preference highway="unclassified"  percent="95" />
          <preference highway="residential"   percent="100" />
          <preference highway="service"       percent="95" />
          <preference highway="track"         percent="90" />
          <preference highway="cycleway"      percent="95" />
          <preference highway="path"          percent="100" />
          <preference highway="steps"         percent="90" />
          <preference highway="ferry"         percent="20" />
        </preferences>
        <properties>
          <property type="paved"         percent="50" />
          <property type="multilane"     percent="50" />
          <property type="bridge"        percent="50" />
          <property type="tunnel"        percent="50" />
          <property type="footroute"     percent="55" />
          <property type="bicycleroute"  percent="50" />
        </properties>
        <restrictions>
          <oneway obey="0" />
          <turns  obey="0" />
          <weight limit="0.0" />
          <height limit="0.0" />
          <width  limit="0.0" />
          <length limit="0.0" />
        </restrictions>
      </profile>
      <profile name="wheelchair" transport="wheelchair">
        <speeds>
          <speed highway="motorway"      kph="0" />
          <speed highway="trunk"         kph="4" />
          <speed highway="primary"       kph="4" />
          <speed highway="secondary"     kph="4" />
          <speed highway="tertiary"      kph="4" />
          <speed highway="unclassified"  kph="4" />
          <speed highway="residential"   kph="4" />
          <speed highway="service"       kph="4" />
          <speed highway="track"         kph="2" />
          <speed highway="cycleway"      kph="4" />
          <speed highway="path"          kph="3" />
          <speed highway="steps"         kph="0" />
          <speed highway="ferry"         kph="10" />
        </speeds>
        <preferences>
          <preference highway="motorway"      percent="0" />
          <preference highway="trunk"         percent="50" />
          <preference highway="primary"       percent="70" />
          <preference highway="secondary"     percent="80" />
          <preference highway="tertiary"      percent="85" />
          <preference highway="unclassified"  percent="90" />
          <preference highway="residential"   percent="100" />
          <preference highway="service"       percent="90" />
          <preference highway="track"         percent="50" />
          <preference highway="cycleway"      percent="90" />
          <preference highway="path"          percent="70" />
          <preference highway="steps"         percent="0" />
          <preference highway="ferry"         percent="20" />
        </preferences>
        <properties>
          <property type="paved"         percent="90" />
          <property type="multilane"     percent="40" />
          <property type="bridge"        percent="50" />
          <property type="tunnel"        percent="50" />
          <property type="footroute"     percent="55" />
          <property type="bicycleroute"  percent="50" />
        </properties>
        <restrictions>
          <oneway obey="0" />
          <turns  obey="0" />
          <weight limit="0.0" />
          <height limit="0.0" />
          <width  limit="0.0" />
          <length limit="0.0" />
        </restrictions>
      </profile>
      <profile name="bike" transport="bicycle">
        <speeds>
          <speed highway="motorway"      kph="0" />
          <speed highway="trunk"         kph="16" />
          <speed highway="primary"       kph="16" />
          <speed highway="secondary"     kph="16" />
          <speed highway="tertiary"      kph="16" />
          <speed highway="unclassified"  kph="16" />
          <speed highway="residential"   kph="16" />
          <speed highway="service"       kph="12" />
          <speed highway="track"         kph="12" />
          <speed highway="cycleway"      kph="18" />
          <speed highway="path"          kph="12" />
          <speed highway="steps"         kph="0" />
          <speed highway="ferry"         kph="10" />
        </speeds>
        <preferences>
          <preference highway="motorway"      percent="0" />
          <preference highway="trunk"         percent="30" />
          <preference highway="primary"       percent="70" />
          <preference highway="secondary"     percent="80" />
          <preference highway="tertiary"      percent="90" />
          <preference highway="unclassified"  percent="90" />
          <preference highway="residential"   percent="90" />
          <preference highway="service"       percent="80" />
          <preference highway="track"         percent="80" />
          <preference highway="cycleway"      percent="100" />
          <preference highway="path"          percent="90" />
          <preference highway="steps"         percent="0" />
          <preference highway="ferry"         percent="20" />
        </preferences>
        <properties>
          <property type="paved"         percent="60" />
          <property type="multilane"     percent="25" />
          <property type="bridge"        percent="50" />
          <property type="tunnel"        percent="50" />
          <property type="footroute"     percent="50" />
          <property type="bicycleroute"  percent="60" />
        </properties>
        <restrictions>
          <oneway obey="1" />
          <turns  obey="1" />
          <weight limit="0.0" />
          <height limit="0.0" />
          <width  limit="0.0" />
          <length limit="0.0" />
        </restrictions>
      </profile>
      <profile name="car" transport="motorcar">
        <speeds>
          <speed highway="motorway"      kph="100" />
          <speed highway="trunk"         kph="80" />
          <speed highway="primary"       kph="55" />
          <speed highway="secondary"     kph="45" />
          <speed highway="tertiary"      kph="40" />
          <speed highway="unclassified"  kph="35" />
          <speed highway="residential"   kph="28" />
          <speed highway="service"       kph="15" />
          <speed highway="track"         kph="15" />
          <speed highway="cycleway"      kph="0" />
          <speed highway="path"          kph="0" />
          <speed highway="steps"         kph="0" />
          <speed highway="ferry"         kph="10" />
        </speeds>
        <preferences>
          <preference highway="motorway"      percent="100" />
          <preference highway="trunk"         percent="100" />
          <preference highway="primary"       percent="95" />
          <preference highway="secondary"     percent="90" />
          <preference highway="tertiary"      percent="85" />
          <preference highway="unclassified"  percent="75" />
          <preference highway="residential"   percent="65" />
          <preference highway="service"       percent="40" />
          <preference highway="track"         percent="10" />
          <preference highway="cycleway"      percent="0" />
          <preference highway="path"          percent="0" />
          <preference highway="steps"         percent="0" />
          <preference highway="ferry"         percent="20" />
        </preferences>
        <properties>
          <property type="paved"         percent="100" />
          <property type="multilane"     percent="60" />
          <property type="bridge"        percent="50" />
          <property type="tunnel"        percent="50" />
          <property type="footroute"     percent="45" />
          <property type="bicycleroute"  percent="45" />
        </properties>
        <restrictions>
          <oneway obey="1" />
          <turns  obey="1" />
          <weight limit="0.0" />
          <height limit="0.0" />
          <width  limit="0.0" />
          <length limit="0.0" />
        </restrictions>
      </profile>
    </routino-profiles>

    """
}
