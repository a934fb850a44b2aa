import Foundation

/// The one OSM writer: an `.osm` XML document of nodes, ways and relations (planetsplitter and
/// libreadosm both read it), for the small synthetic regions the tests import.
public struct OSMDocument {

    /// Decimals written for coordinates; nil writes each as Swift prints it (shortest exact form).
    public var decimals: Int?
    private var elements: [String] = []

    public init(decimals: Int? = 7) { self.decimals = decimals }

    public mutating func node(_ id: Int, latitude: Double, longitude: Double, tags: [(String, String)] = []) {
        let position = "lat=\"\(number(latitude))\" lon=\"\(number(longitude))\""
        elements.append(tags.isEmpty ? "  <node id=\"\(id)\" version=\"1\" \(position)/>"
                                     : "  <node id=\"\(id)\" version=\"1\" \(position)>\n\(Self.tagLines(tags))  </node>")
    }

    public mutating func way(_ id: Int, _ refs: [Int], tags: [(String, String)]) {
        elements.append("  <way id=\"\(id)\" version=\"1\">\n" + refs.map { "    <nd ref=\"\($0)\"/>\n" }.joined()
                        + Self.tagLines(tags) + "  </way>")
    }

    /// `members` are (type, ref, role), as `("way", 102, "outer")`.
    public mutating func relation(_ id: Int, members: [(String, Int, String)], tags: [(String, String)]) {
        elements.append("  <relation id=\"\(id)\" version=\"1\">\n"
                        + members.map { "    <member type=\"\($0.0)\" ref=\"\($0.1)\" role=\"\($0.2)\"/>\n" }.joined()
                        + Self.tagLines(tags) + "  </relation>")
    }

    public var xml: String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"usefulmap-tests\">\n"
            + elements.map { $0 + "\n" }.joined() + "</osm>\n"
    }

    /// Writes the document to `url` and returns it.
    @discardableResult
    public func write(to url: URL) throws -> URL {
        try Data(xml.utf8).write(to: url)
        return url
    }

    /// Tags given as a dictionary, in key order (so the file is the same on every run).
    public static func sorted(_ tags: [String: String]) -> [(String, String)] {
        tags.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    private func number(_ value: Double) -> String {
        decimals.map { String(format: "%.\($0)f", value) } ?? "\(value)"
    }

    private static func tagLines(_ tags: [(String, String)]) -> String {
        tags.map { "    <tag k=\"\(escaped($0.0))\" v=\"\(escaped($0.1))\"/>\n" }.joined()
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
