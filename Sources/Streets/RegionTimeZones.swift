import Foundation

/// Guesses a region's IANA time zone from the centre of its bounding box, when the caller does
/// not pass one. A deliberately small table of rectangles around the countries we expect users
/// to import first (Nordic and Baltic countries and their neighbours); the first match wins,
/// so smaller or more specific rectangles come first. Anything else is "UTC", and the importer
/// should be given the zone (a GTFS feed's `agency_timezone` is the usual source).
enum RegionTimeZones {
    struct Entry {
        var zone: String
        var minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double
    }

    static let table: [Entry] = [
        Entry(zone: "Europe/Mariehamn", minLatitude: 59.7, maxLatitude: 60.6, minLongitude: 19.3, maxLongitude: 21.2),
        Entry(zone: "Europe/Tallinn", minLatitude: 57.5, maxLatitude: 59.7, minLongitude: 21.7, maxLongitude: 28.3),
        Entry(zone: "Europe/Riga", minLatitude: 55.6, maxLatitude: 57.5, minLongitude: 20.9, maxLongitude: 28.3),
        Entry(zone: "Europe/Helsinki", minLatitude: 59.7, maxLatitude: 70.1, minLongitude: 21.0, maxLongitude: 31.6),
        Entry(zone: "Europe/Stockholm", minLatitude: 55.3, maxLatitude: 69.1, minLongitude: 11.0, maxLongitude: 21.0),
        Entry(zone: "Europe/Oslo", minLatitude: 57.9, maxLatitude: 71.2, minLongitude: 4.5, maxLongitude: 11.0),
        Entry(zone: "Europe/Copenhagen", minLatitude: 54.5, maxLatitude: 57.8, minLongitude: 8.0, maxLongitude: 12.7),
        Entry(zone: "Europe/Berlin", minLatitude: 47.3, maxLatitude: 54.9, minLongitude: 5.9, maxLongitude: 15.0),
        Entry(zone: "Europe/London", minLatitude: 49.9, maxLatitude: 58.7, minLongitude: -8.2, maxLongitude: 1.8),
    ]

    /// The zone for a point, or "UTC" when the table has none.
    static func zone(latitude: Double, longitude: Double) -> String {
        table.first { entry in
            latitude >= entry.minLatitude && latitude <= entry.maxLatitude
                && longitude >= entry.minLongitude && longitude <= entry.maxLongitude
        }?.zone ?? "UTC"
    }
}
