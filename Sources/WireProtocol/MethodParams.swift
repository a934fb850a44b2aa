/// The params of every method, shared by the client (which builds them) and the daemon (which
/// decodes them with `IncomingRequest.params`); `Endpoints` says which method takes which. Places are strings the daemon resolves: a saved
/// place's name, `lat,lon`, `@here`, or text that is searched (first result). Times are
/// `HH:MM` today or ISO 8601, in the region's time zone. Node and segment numbers start at 1.
public enum Params {
    public struct Hello: Hashable, Sendable, Codable {
        public var protocolVersion: Int
        public var client: String?
        public init(protocolVersion: Int = ProtocolVersion.current, client: String? = nil) {
            self.protocolVersion = protocolVersion
            self.client = client
        }

        /// The params as `JSONValue(encoding:)` gives them, written out: every umctl process sends
        /// a hello, and the synthesized `encode(to:)` costs it the run-time set-up of a keyed
        /// container (about 5 % of a `umctl status`). Filled key by key: a dictionary literal is
        /// made from an array of key-value tuples, whose type the runtime builds at first use.
        public var jsonValue: JSONValue {
            var fields: [String: JSONValue] = [:]
            fields.reserveCapacity(2)
            fields["protocol_version"] = .number(Double(protocolVersion))
            if let client { fields["client"] = .string(client) }
            return .object(fields)
        }
    }

    public struct Empty: Hashable, Sendable, Codable {
        public init() {}

        /// `{}` as one value: the synthesized encoding asked the encoder for a keyed container
        /// of its (no) keys, which umctl's encoder (`JSONValueEncoder`) could only make by
        /// instantiating its generic container types at run time, a sixteenth of `umctl status`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(JSONValue.object([:]))
        }
    }

    public struct Name: Hashable, Sendable, Codable {
        public var name: String
        public init(name: String) { self.name = name }
    }

    /// `region.list`: the day whose transit service hours each feed shows (`status` shows today's).
    public struct ServiceDay: Hashable, Sendable, Codable {
        /// `YYYY-MM-DD`, in each region's zone; default today on the daemon's clock.
        public var date: String?
        public init(date: String? = nil) { self.date = date }
    }

    public struct RegionImport: Hashable, Sendable, Codable {
        public var name: String
        /// Absolute path of an `.osm.pbf` (or `.osm`) file readable by the daemon, or an
        /// `http(s)://` URL the daemon fetches.
        public var osm: String
        /// Absolute paths of GTFS zip files, or `http(s)://` URLs.
        public var gtfs: [String]
        /// Replace an existing region of that name.
        public var force: Bool?
        /// The region's IANA zone; default the feeds' `agency_timezone`, else derived from its position.
        public var timeZone: String?
        /// Drop the region's transit on purpose (without `gtfs` its current feeds are kept).
        public var noTransit: Bool?
        /// True when the files come open with the request (`SCM_RIGHTS`), `osm` first, then
        /// each of `gtfs` in order; the paths then only name them.
        public var passedFiles: Bool?
        public init(name: String, osm: String, gtfs: [String], force: Bool? = nil, timeZone: String? = nil,
                    noTransit: Bool? = nil, passedFiles: Bool? = nil) {
            self.passedFiles = passedFiles
            self.name = name
            self.osm = osm
            self.gtfs = gtfs
            self.force = force
            self.timeZone = timeZone
            self.noTransit = noTransit
        }
    }

    /// `region.update`: check regions' sources and rebuild what changed.
    public struct RegionUpdate: Hashable, Sendable, Codable {
        /// The regions to check; empty or absent: every region.
        public var names: [String]?
        /// Fetch every URL source whole (no conditional request) and rebuild even when nothing changed.
        public var force: Bool?
        /// Check only this GTFS feed of the one region named (its `transit_feeds` name, that name
        /// without `.zip`, or its position from 1); the other sources are neither fetched nor checked.
        public var feed: String?
        public init(names: [String]? = nil, force: Bool? = nil, feed: String? = nil) {
            self.names = names
            self.force = force
            self.feed = feed
        }
    }

    /// `region.set`: change a region without importing it again.
    public struct RegionSet: Hashable, Sendable, Codable {
        public var name: String
        public var timeZone: String?
        /// GTFS-Realtime feeds (`http(s)://` URLs or absolute file paths) replacing the region's;
        /// an empty list removes them. Absent: unchanged.
        public var realtime: [String]?
        /// Seconds between polls of each feed (at least 10; default 30).
        public var realtimeIntervalS: Int?
        public init(name: String, timeZone: String? = nil, realtime: [String]? = nil, realtimeIntervalS: Int? = nil) {
            self.name = name
            self.timeZone = timeZone
            self.realtime = realtime
            self.realtimeIntervalS = realtimeIntervalS
        }
    }

    /// Every region is searched; results are ranked as one list (docs/streets.md): exact
    /// names before prefixes before typos, near `near` (else the current location) first.
    public struct Search: Hashable, Sendable, Codable {
        public var text: String
        public var near: String?
        /// `address`, `street`, `poi` or `stop`.
        public var kind: String?
        public var limit: Int?
        /// Search only this region.
        public var region: String?
        /// Only results inside this box.
        public var within: WireBox?
        public init(text: String, near: String? = nil, kind: String? = nil, limit: Int? = nil, region: String? = nil,
                    within: WireBox? = nil) {
            self.text = text
            self.near = near
            self.kind = kind
            self.limit = limit
            self.region = region
            self.within = within
        }
    }

    /// `where`: what is at a place (`lat,lon`, a saved place, `@here` or text).
    public struct Where: Hashable, Sendable, Codable {
        public var place: String
        public init(place: String) { self.place = place }
    }

    public struct PlaceSave: Hashable, Sendable, Codable {
        public var name: String
        public var place: String
        public var note: String?
        /// Put a geofence around the place (on); without it an existing fence is kept as it is.
        public var geofence: Bool?
        /// The fence's enter radius in metres (default 80; it is left at 1.5 times that).
        public var radiusM: Double?
        public init(name: String, place: String, note: String? = nil, geofence: Bool? = nil, radiusM: Double? = nil) {
            self.name = name
            self.place = place
            self.note = note
            self.geofence = geofence
            self.radiusM = radiusM
        }
    }

    /// `place.fence`: turn a saved place's geofence on or off (on with `radius_m` also resizes it).
    public struct PlaceFence: Hashable, Sendable, Codable {
        public var name: String
        public var on: Bool
        public var radiusM: Double?
        public init(name: String, on: Bool, radiusM: Double? = nil) {
            self.name = name
            self.on = on
            self.radiusM = radiusM
        }
    }

    public struct PlaceRename: Hashable, Sendable, Codable {
        public var old: String
        public var new: String
        public init(old: String, new: String) {
            self.old = old
            self.new = new
        }
    }

    public struct LocationSet: Hashable, Sendable, Codable {
        public var lat: Double
        public var lon: Double
        public var accuracyM: Double?
        public init(lat: Double, lon: Double, accuracyM: Double? = nil) {
            self.lat = lat
            self.lon = lon
            self.accuracyM = accuracyM
        }
    }

    /// `at` (depart at) and `arrive_by` are exclusive; neither means leave now.
    /// `region` limits where text places are searched; `near` (a place) is where they are looked up first.
    public struct Compare: Hashable, Sendable, Codable {
        public var from: String
        public var to: String
        public var at: String?
        public var arriveBy: String?
        public var pace: WirePace?
        public var region: String?
        public var near: String?
        /// Also draw the routes on one picture (`CompareDocument.map`).
        public var map: MapPicture?
        /// Only these modes, in the standard order (default: walk, transit, car, bike).
        public var modes: [WireMode]?
        /// Step-free walks and transit (default any).
        public var access: AccessLevel?
        /// Also each option's lines (`CompareOption.geometry`), for a client that draws them (the web app).
        public var geometry: Bool? = nil
        public init(from: String, to: String, at: String? = nil, arriveBy: String? = nil, pace: WirePace? = nil,
                    region: String? = nil, near: String? = nil, map: MapPicture? = nil, modes: [WireMode]? = nil,
                    access: AccessLevel? = nil) {
            self.access = access
            self.from = from
            self.to = to
            self.at = at
            self.arriveBy = arriveBy
            self.pace = pace
            self.region = region
            self.near = near
            self.map = map
            self.modes = modes
        }
    }

    public struct PlanNew: Hashable, Sendable, Codable {
        public var from: String
        public var to: String
        /// One mode for every segment, or null for the fastest.
        public var mode: WireMode?
        public var at: String?
        public var arriveBy: String?
        public var pace: WirePace?
        public var title: String?
        public var region: String?
        public var near: String?
        /// Places visited between `from` and `to`, in order (a day: home → work → shop → home).
        public var via: [String]?
        /// Step-free walks and transit, stored with the plan (default any).
        public var access: AccessLevel?
        public init(from: String, to: String, mode: WireMode? = nil, at: String? = nil, arriveBy: String? = nil,
                    pace: WirePace? = nil, title: String? = nil, region: String? = nil, near: String? = nil,
                    via: [String]? = nil, access: AccessLevel? = nil) {
            self.access = access
            self.from = from
            self.to = to
            self.via = via
            self.mode = mode
            self.at = at
            self.arriveBy = arriveBy
            self.pace = pace
            self.title = title
            self.region = region
            self.near = near
        }
    }

    public struct PlanID: Hashable, Sendable, Codable {
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public var id: Int64
        public init(id: Int64, expectedGeneration: Int64? = nil) {
            self.id = id
            self.expectedGeneration = expectedGeneration
        }
    }

    /// `plan.remind`: the plan's reminder to leave on or off, with its own lead in seconds;
    /// without `on`, only its current setting.
    public struct PlanRemind: Hashable, Sendable, Codable {
        public var id: Int64
        public var on: Bool?
        public var leadS: Double?
        /// The reminder is set (or read) only while the plan is at this generation (else `conflict`).
        public var expectedGeneration: Int64?
        public init(id: Int64, on: Bool?, leadS: Double? = nil, expectedGeneration: Int64? = nil) {
            self.id = id
            self.on = on
            self.leadS = leadS
            self.expectedGeneration = expectedGeneration
        }
    }

    /// `plan.link`: one segment's Google Maps link. It reads the plan, so it takes no
    /// `expected_generation` (refused by name, as by `plan.show`).
    public struct PlanLink: Hashable, Sendable, Codable {
        public var id: Int64
        public var segment: Int
        public init(id: Int64, segment: Int) {
            self.id = id
            self.segment = segment
        }
    }

    /// Every filter given must hold: `text` in what was typed, `place` in a place's name (both
    /// case-insensitive), `mode` a route's mode, recorded at or after `since` and before `until`
    /// (dates `YYYY-MM-DD` or ISO 8601 instants, in the machine's zone).
    public struct HistoryList: Hashable, Sendable, Codable {
        public var limit: Int?
        public var text: String?
        public var place: String?
        public var mode: WireMode?
        public var since: String?
        public var until: String?
        public init(limit: Int? = nil, text: String? = nil, place: String? = nil, mode: WireMode? = nil,
                    since: String? = nil, until: String? = nil) {
            self.limit = limit
            self.text = text
            self.place = place
            self.mode = mode
            self.since = since
            self.until = until
        }
    }

    /// `searches`, `routes` or `visits`.
    public struct HistoryClear: Hashable, Sendable, Codable {
        public var which: String
        public init(which: String) { self.which = which }
    }
}
