import Foundation

/// The app's files: its own, compiled into the daemon (`embedInCode` in Package.swift, so an
/// installed daemon needs no data folder for them), and Leaflet from Debian's `libjs-leaflet`
/// (`/usr/share/javascript/leaflet`, a dependency of the package), read from there.
enum WebAssets {
    static let leafletFolder = "/usr/share/javascript/leaflet"

    /// The app's file at `/` or `/app/NAME`; nil for any other name.
    static func app(_ name: String) -> (bytes: [UInt8], type: String)? {
        switch name {
        case "index.html": (PackageResources.index_html, "text/html; charset=utf-8")
        case "app.js": (PackageResources.app_js, "text/javascript; charset=utf-8")
        case "views.js": (PackageResources.views_js, "text/javascript; charset=utf-8")
        case "api.js": (PackageResources.api_js, "text/javascript; charset=utf-8")
        case "style.css": (PackageResources.style_css, "text/css; charset=utf-8")
        default: nil
        }
    }

    /// Leaflet's file at `/leaflet/PATH`: only plain names under its folder (no `..`).
    static func leaflet(_ path: String) -> (bytes: Data, type: String)? {
        guard !path.isEmpty, !path.contains(".."), path.allSatisfy({ $0.isLetter || $0.isNumber || "-_./".contains($0) }),
              let bytes = FileManager.default.contents(atPath: "\(leafletFolder)/\(path)") else { return nil }
        let type = switch (path as NSString).pathExtension {
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
        return (bytes, type)
    }
}
