/// `plan.export`'s file: GeoJSON, GPX or iCalendar.
public enum WireExportFormat: String, WireWord {
    case geojson, gpx, ics
}
