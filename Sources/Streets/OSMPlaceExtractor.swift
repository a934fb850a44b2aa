import CReadOSM
import Foundation
import Planner

/// A named feature read from OSM, before streets are merged.
struct ExtractedPlace: Sendable, Hashable {
    var name: String
    var kind: PlaceSearchKind
    /// "highway=residential", "amenity=cafe", …
    var category: String
    var coordinate: Coordinate
    /// "node/123" or "way/456" (the first way of a merged street).
    var osmReference: String
    /// For streets: each OSM way's line, simplified (reverse geocoding measures to them).
    var lines: [[Coordinate]] = []
}

/// An `addr:*` address read from OSM: on a node, a way (its centre) or a relation.
struct ExtractedAddress: Sendable, Hashable {
    /// `addr:street`, else `addr:place` (an address on a square or a village without streets).
    var street: String
    var housenumber: String
    var unit: String?
    var postcode: String?
    var city: String?
    var coordinate: Coordinate
    var osmReference: String
}

/// A stretch of an `addr:interpolation` way between two numbered nodes: the numbers between
/// them lie evenly along the line.
struct ExtractedInterpolation: Sendable, Hashable {
    var street: String
    var first: Int
    var last: Int
    /// 2 for `odd` / `even`, 1 for `all`, or the number given.
    var step: Int
    var postcode: String?
    var city: String?
    var points: [Coordinate]
    var osmReference: String
}

/// Reads an OSM file once with libreadosm: the extent and counts for the manifest, and every
/// named street, amenity, shop and similar feature for the place index.
///
/// Street ways that share a name and touch (a shared node, or within `streetJoinDistance`)
/// become one place: "Hämeenkatu" is one result, not its fifty OSM ways.
struct OSMPlaceExtractor {
    struct Extract: Sendable {
        var boundingBox: RegionBoundingBox
        var nodeCount: Int
        var wayCount: Int
        var places: [ExtractedPlace]
        var addresses: [ExtractedAddress]
        var interpolations: [ExtractedInterpolation]
        /// Every drawn highway way, simplified, for the map's street layer.
        var streets: [StreetLine]
        /// Languages the map's names are written in: the `name:xx` keys on at least
        /// `languageShare` of the named objects (and on `languageMinimum` of them), codes sorted.
        var languages: [String]
        /// The street graph's connected components, for `no_route` known before routing.
        var components: StreetComponents
    }

    /// A `name:xx` key on this share of the named objects makes xx a language of the region: the
    /// region's own languages, not those of a few landmarks named in twenty.
    static let languageShare = 0.01
    static let languageMinimum = 2

    /// Keys that make a named node or way a point of interest, in priority order.
    static let poiKeys = ["amenity", "shop", "tourism", "leisure", "office", "craft", "healthcare", "historic",
                          "railway", "aeroway", "place", "building"]
    /// `highway=*` values that are not streets (stops come from the transit feed instead).
    static let nonStreetHighways: Set<String> = ["bus_stop", "platform", "elevator", "proposed", "construction",
                                                 "street_lamp", "traffic_signals", "crossing", "give_way", "stop"]
    /// Same-named ways closer than this (metres) are one street.
    static let streetJoinDistance = 150.0

    /// - parameter shouldStop: asked every 10,000 nodes and ways; true stops the reading (the
    ///   import was cancelled, or failed elsewhere).
    /// - throws: `StreetsError.importFailed` when the file cannot be read to the end (a truncated
    ///   download); `CancellationError` when `shouldStop` stopped it.
    static func extract(from file: URL, progress: @escaping (Int, Int) -> Void = { _, _ in },
                        shouldStop: @escaping () -> Bool = { false }) throws -> Extract {
        let collector = Collector(progress: progress, shouldStop: shouldStop)
        var handle: UnsafeRawPointer?
        let opened = readosm_open(file.path, &handle)
        guard opened == READOSM_OK, let handle else {
            if let handle { readosm_close(handle) }
            throw StreetsError.importFailed(phase: "reading places", message: "libreadosm cannot open \(file.path) (error \(opened))")
        }
        defer { readosm_close(handle) }
        let context = Unmanaged.passUnretained(collector).toOpaque()
        let parsed = readosm_parse(handle, context, { context, node in
            guard let context, let node else { return READOSM_OK }
            let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
            collector.add(node.pointee)
            return collector.stopped ? READOSM_ABORT : READOSM_OK
        }, { context, way in
            guard let context, let way else { return READOSM_OK }
            let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
            collector.add(way.pointee)
            return collector.stopped ? READOSM_ABORT : READOSM_OK
        }, { context, relation in
            guard let context, let relation else { return READOSM_OK }
            Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().add(relation.pointee)
            return READOSM_OK
        })
        if collector.stopped { throw CancellationError() }
        guard parsed == READOSM_OK else {
            throw StreetsError.importFailed(phase: "reading places",
                                            message: "libreadosm stopped reading \(file.lastPathComponent) (error \(parsed)); is the file complete?")
        }
        guard collector.nodeCount > 0 else {
            throw StreetsError.importFailed(phase: "reading places", message: "\(file.lastPathComponent) holds no nodes")
        }
        return Extract(boundingBox: collector.boundingBox, nodeCount: collector.nodeCount, wayCount: collector.wayCount,
                       places: collector.pointsOfInterest + mergeStreets(collector.streetWays),
                       addresses: collector.addresses, interpolations: collector.interpolations(),
                       streets: collector.streetLines, languages: collector.languages,
                       components: collector.streetComponents())
    }

    /// One named street way with its node ids and coordinates.
    struct StreetWay {
        var id: Int64
        var name: String
        var category: String
        var nodeIDs: [Int64]
        var coordinates: [Coordinate]
    }

    /// Groups same-named ways into connected streets (union–find over shared nodes and proximity).
    static func mergeStreets(_ ways: [StreetWay]) -> [ExtractedPlace] {
        var result: [ExtractedPlace] = []
        let byName = Dictionary(grouping: ways.indices, by: { ways[$0].name })
        for name in byName.keys.sorted() {
            guard let members = byName[name] else { continue }
            var parent = Array(0..<members.count)
            func find(_ i: Int) -> Int {
                var i = i
                while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
                return i
            }
            func union(_ a: Int, _ b: Int) { parent[find(a)] = find(b) }
            var firstWayOfNode: [Int64: Int] = [:]
            for (local, index) in members.enumerated() {
                for node in ways[index].nodeIDs {
                    if let other = firstWayOfNode[node] { union(local, other) } else { firstWayOfNode[node] = local }
                }
            }
            if members.count > 1 {
                for a in 0..<members.count {
                    for b in (a + 1)..<members.count where find(a) != find(b) {
                        if waysAreNear(ways[members[a]], ways[members[b]]) { union(a, b) }
                    }
                }
            }
            let clusters = Dictionary(grouping: members.indices, by: find)
            for key in clusters.keys.sorted() {
                guard let cluster = clusters[key] else { continue }
                let clusterWays = cluster.map { ways[members[$0]] }
                let points = clusterWays.flatMap(\.coordinates)
                guard !points.isEmpty, let first = clusterWays.min(by: { $0.id < $1.id }) else { continue }
                let mean = Coordinate(latitude: points.map(\.latitude).reduce(0, +) / Double(points.count),
                                      longitude: points.map(\.longitude).reduce(0, +) / Double(points.count))
                let anchor = points.min { $0.distance(to: mean) < $1.distance(to: mean) } ?? mean
                result.append(ExtractedPlace(name: name, kind: .street, category: first.category,
                                             coordinate: anchor, osmReference: "way/\(first.id)",
                                             lines: clusterWays.map { simplify($0.coordinates, toleranceMetres: 5) }))
            }
        }
        return result
    }

    private static func waysAreNear(_ a: StreetWay, _ b: StreetWay) -> Bool {
        // Endpoints against all points is enough: ways of one street continue each other.
        let ends = [a.coordinates.first, a.coordinates.last, b.coordinates.first, b.coordinates.last].compactMap { $0 }
        for end in ends.prefix(2) where b.coordinates.contains(where: { $0.distance(to: end) < streetJoinDistance }) {
            return true
        }
        for end in ends.dropFirst(2) where a.coordinates.contains(where: { $0.distance(to: end) < streetJoinDistance }) {
            return true
        }
        return false
    }

    /// Accumulates what the C callbacks deliver. Used from the parsing thread only.
    final class Collector {
        var nodeIDs: [Int64] = []
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        var nodesSorted = true
        var nodeCount = 0
        var wayCount = 0
        var minLatitude = Double.infinity, maxLatitude = -Double.infinity
        var minLongitude = Double.infinity, maxLongitude = -Double.infinity
        var pointsOfInterest: [ExtractedPlace] = []
        /// Named nodes and ways, and how many of them carry each `name:xx` key.
        var namedObjects = 0
        var nameLanguages: [String: Int] = [:]
        var streetWays: [StreetWay] = []
        var streetLines: [StreetLine] = []
        var addresses: [ExtractedAddress] = []
        /// `addr:interpolation` ways, kept until the end: their numbers are on their nodes.
        var interpolationWays: [(id: Int64, scheme: String, nodeIDs: [Int64], tags: [String: String])] = []
        /// House numbers of address nodes, for the interpolation ways that run between them.
        var numberedNodes: [Int64: ExtractedAddress] = [:]
        /// Every way's centre, for relations (multipolygons) whose members they are.
        var wayCentres = WayCentres()
        var componentsBuilder = StreetComponentsBuilder()
        let progress: (Int, Int) -> Void
        let shouldStop: () -> Bool
        /// Set once `shouldStop` said so: the parser's callbacks then abort it.
        private(set) var stopped = false

        init(progress: @escaping (Int, Int) -> Void, shouldStop: @escaping () -> Bool) {
            self.progress = progress
            self.shouldStop = shouldStop
        }

        private func checkStop(every count: Int) {
            if count % 10_000 == 0, shouldStop() { stopped = true }
        }

        var boundingBox: RegionBoundingBox {
            RegionBoundingBox(minLatitude: minLatitude, minLongitude: minLongitude,
                              maxLatitude: maxLatitude, maxLongitude: maxLongitude)
        }

        func add(_ node: readosm_node) {
            nodeCount += 1
            if let last = nodeIDs.last, node.id <= last { nodesSorted = false }
            nodeIDs.append(node.id)
            latitudes.append(node.latitude)
            longitudes.append(node.longitude)
            minLatitude = min(minLatitude, node.latitude); maxLatitude = max(maxLatitude, node.latitude)
            minLongitude = min(minLongitude, node.longitude); maxLongitude = max(maxLongitude, node.longitude)
            if nodeCount % 100_000 == 0 { progress(nodeCount, wayCount) }
            checkStop(every: nodeCount)
            guard node.tag_count > 0 else { return }
            let tags = Collector.tags(node.tags, count: node.tag_count)
            countLanguages(tags)
            let coordinate = Coordinate(latitude: node.latitude, longitude: node.longitude)
            if let address = Collector.address(tags, at: coordinate, osm: "node/\(node.id)") {
                addresses.append(address)
                numberedNodes[node.id] = address
            }
            addPointOfInterest(tags, at: coordinate, osm: "node/\(node.id)")
        }

        /// Counts a named object and the languages of its `name:xx` keys.
        func countLanguages(_ tags: [String: String]) {
            guard tags["name"] != nil else { return }
            namedObjects += 1
            for key in tags.keys where key.hasPrefix("name:") {
                if let code = PlaceLanguage.code(of: String(key.dropFirst(5))), !key.dropFirst(5).contains(":") {
                    nameLanguages[code, default: 0] += 1
                }
            }
        }

        /// The languages named on enough objects (`languageShare`, `languageMinimum`).
        var languages: [String] {
            let needed = max(OSMPlaceExtractor.languageMinimum, Int((Double(namedObjects) * OSMPlaceExtractor.languageShare).rounded(.up)))
            return nameLanguages.filter { $0.value >= needed }.keys.sorted()
        }

        /// A named feature with a point-of-interest tag, or an unnamed one of a searchable
        /// category (an ATM, toilets), named by its category.
        func addPointOfInterest(_ tags: [String: String], at coordinate: Coordinate, osm: String) {
            let name = tags["name"].flatMap { $0.isEmpty ? nil : $0 }
            let categorised = PlaceCategory.of(tags)
            guard let category = categorised?.tag ?? (name == nil ? nil : Collector.poiCategory(tags)),
                  let label = name ?? categorised?.category.label else { return }
            pointsOfInterest.append(ExtractedPlace(name: label, kind: .poi, category: category,
                                                   coordinate: coordinate, osmReference: osm))
        }

        func add(_ relation: readosm_relation) {
            guard relation.tag_count > 0, let members = relation.members, relation.member_count > 0 else { return }
            let tags = Collector.tags(relation.tags, count: relation.tag_count)
            guard tags["addr:housenumber"] != nil || tags["name"] != nil else { return }
            let outer = UnsafeBufferPointer(start: members, count: Int(relation.member_count))
                .filter { $0.member_type == READOSM_MEMBER_WAY && ($0.role.map { String(cString: $0) } ?? "") != "inner" }
                .compactMap { wayCentres.centre(of: $0.id) }
            guard !outer.isEmpty else { return }
            let centre = Coordinate(latitude: outer.map(\.latitude).reduce(0, +) / Double(outer.count),
                                    longitude: outer.map(\.longitude).reduce(0, +) / Double(outer.count))
            if let address = Collector.address(tags, at: centre, osm: "relation/\(relation.id)") { addresses.append(address) }
            if tags["highway"] == nil { addPointOfInterest(tags, at: centre, osm: "relation/\(relation.id)") }
        }

        static func address(_ tags: [String: String], at coordinate: Coordinate, osm: String) -> ExtractedAddress? {
            guard let number = tags["addr:housenumber"]?.trimmingCharacters(in: .whitespaces), !number.isEmpty,
                  let street = (tags["addr:street"] ?? tags["addr:place"])?.trimmingCharacters(in: .whitespaces),
                  !street.isEmpty else { return nil }
            func value(_ key: String) -> String? { tags[key].flatMap { $0.isEmpty ? nil : $0 } }
            return ExtractedAddress(street: street, housenumber: number, unit: value("addr:unit"),
                                    postcode: value("addr:postcode"), city: value("addr:city"),
                                    coordinate: coordinate, osmReference: osm)
        }

        /// Each interpolation way cut at its numbered nodes into stretches with a first and last number.
        func interpolations() -> [ExtractedInterpolation] {
            var result: [ExtractedInterpolation] = []
            for way in interpolationWays {
                let step = switch way.scheme { case "odd", "even": 2; case "all": 1; default: Int(way.scheme) ?? 0 }
                guard step > 0 else { continue }
                var start: (address: ExtractedAddress, number: Int)?
                var points: [Coordinate] = []
                for id in way.nodeIDs {
                    guard let point = coordinate(of: id) else { continue }
                    points.append(point)
                    guard let address = numberedNodes[id], let number = AddressQuery.parseStored(address.housenumber)?.number else { continue }
                    if let first = start, first.number != number {
                        let street = way.tags["addr:street"] ?? first.address.street
                        result.append(ExtractedInterpolation(
                            street: street, first: first.number, last: number, step: step,
                            postcode: first.address.postcode ?? address.postcode, city: first.address.city ?? address.city,
                            points: points, osmReference: "way/\(way.id)"))
                    }
                    start = (address, number)
                    points = [point]
                }
            }
            return result
        }

        func add(_ way: readosm_way) {
            if wayCount == 0 && !nodesSorted { sortNodes() }
            wayCount += 1
            if wayCount % 50_000 == 0 { progress(nodeCount, wayCount) }
            checkStop(every: wayCount)
            let tags = Collector.tags(way.tags, count: way.tag_count)
            countLanguages(tags)
            let streetClass = tags["highway"].flatMap(StreetClass.init(highway:))
            let name = tags["name"].flatMap { $0.isEmpty ? nil : $0 }
            guard let refs = way.node_refs, way.node_ref_count > 0 else { return }
            let ids = Array(UnsafeBufferPointer(start: refs, count: Int(way.node_ref_count)))
            let coordinates = ids.compactMap(coordinate(of:))
            guard let centre = Collector.centre(of: coordinates) else { return }
            if StreetComponentsBuilder.isRoutable(tags) {
                componentsBuilder.addWay(nodeIndices: ids.compactMap(index(of:)), nodeCount: nodeIDs.count,
                                         firstLatitude: centre.latitude)
            }
            wayCentres.append(way.id, centre)
            if let scheme = tags["addr:interpolation"] {
                interpolationWays.append((way.id, scheme, ids, tags))
                return
            }
            if let address = Collector.address(tags, at: centre, osm: "way/\(way.id)") { addresses.append(address) }
            if let streetClass, coordinates.count >= 2 {
                streetLines.append(StreetLine(streetClass: streetClass,
                                              points: simplify(coordinates, toleranceMetres: StreetLayer.toleranceMetres)))
            }
            if let name, let highway = tags["highway"], !OSMPlaceExtractor.nonStreetHighways.contains(highway) {
                streetWays.append(StreetWay(id: way.id, name: name, category: "highway=\(highway)",
                                            nodeIDs: ids, coordinates: coordinates))
            } else {
                addPointOfInterest(tags, at: centre, osm: "way/\(way.id)")
            }
        }

        /// A closed way's area centroid (a building's middle), else the mean of its points.
        static func centre(of points: [Coordinate]) -> Coordinate? {
            guard let first = points.first else { return nil }
            let mean = Coordinate(latitude: points.map(\.latitude).reduce(0, +) / Double(points.count),
                                  longitude: points.map(\.longitude).reduce(0, +) / Double(points.count))
            guard points.count >= 4, let last = points.last, first == last else { return mean }
            // Shoelace centroid in degrees around the mean (small areas: the plane is fine).
            var area = 0.0, x = 0.0, y = 0.0
            for (a, b) in zip(points, points.dropFirst()) {
                let ax = a.longitude - mean.longitude, ay = a.latitude - mean.latitude
                let bx = b.longitude - mean.longitude, by = b.latitude - mean.latitude
                let cross = ax * by - bx * ay
                area += cross
                x += (ax + bx) * cross
                y += (ay + by) * cross
            }
            guard abs(area) > 1e-14 else { return mean }
            return Coordinate(latitude: mean.latitude + y / (3 * area), longitude: mean.longitude + x / (3 * area))
        }

        static func poiCategory(_ tags: [String: String]) -> String? {
            for key in OSMPlaceExtractor.poiKeys {
                if let value = tags[key], !value.isEmpty, value != "no" { return "\(key)=\(value)" }
            }
            return nil
        }

        static func tags(_ tags: UnsafePointer<readosm_tag>?, count: Int32) -> [String: String] {
            guard let tags, count > 0 else { return [:] }
            var result: [String: String] = [:]
            for tag in UnsafeBufferPointer(start: tags, count: Int(count)) {
                guard let key = tag.key, let value = tag.value else { continue }
                result[String(cString: key)] = String(cString: value)
            }
            return result
        }

        /// Nodes usually arrive sorted by id; if not, sort once before the first way.
        private func sortNodes() {
            let order = nodeIDs.indices.sorted { nodeIDs[$0] < nodeIDs[$1] }
            nodeIDs = order.map { nodeIDs[$0] }
            latitudes = order.map { latitudes[$0] }
            longitudes = order.map { longitudes[$0] }
            nodesSorted = true
        }

        private func coordinate(of id: Int64) -> Coordinate? {
            index(of: id).map { Coordinate(latitude: latitudes[$0], longitude: longitudes[$0]) }
        }

        private func index(of id: Int64) -> Int? {
            var low = 0, high = nodeIDs.count - 1
            while low <= high {
                let middle = (low + high) / 2
                if nodeIDs[middle] == id { return middle }
                if nodeIDs[middle] < id { low = middle + 1 } else { high = middle - 1 }
            }
            return nil
        }

        func streetComponents() -> StreetComponents {
            componentsBuilder.build { Coordinate(latitude: self.latitudes[$0], longitude: self.longitudes[$0]) }
        }
    }
}

/// Way centres by way id, compact (16 bytes a way), for the relations read after the ways.
struct WayCentres {
    private var ids: [Int64] = []
    private var latitudes: [Float] = []
    private var longitudes: [Float] = []
    private var sorted = true

    mutating func append(_ id: Int64, _ centre: Coordinate) {
        if let last = ids.last, id <= last { sorted = false }
        ids.append(id)
        latitudes.append(Float(centre.latitude))
        longitudes.append(Float(centre.longitude))
    }

    mutating func centre(of id: Int64) -> Coordinate? {
        if !sorted {
            let order = ids.indices.sorted { ids[$0] < ids[$1] }
            ids = order.map { ids[$0] }
            latitudes = order.map { latitudes[$0] }
            longitudes = order.map { longitudes[$0] }
            sorted = true
        }
        var low = 0, high = ids.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if ids[middle] == id { return Coordinate(latitude: Double(latitudes[middle]), longitude: Double(longitudes[middle])) }
            if ids[middle] < id { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }
}
