import Foundation

/// A transit agency's notice about service (a GTFS-Realtime Alert), as shown under a ride:
/// "Stop closed: roadworks on Hämeenkatu, until 18:00".
public struct ServiceAlert: Hashable, Sendable, Codable {
    /// The most alerts a ride carries: a feed of thousands of alerts on one stop must not make
    /// every answer through it hundreds of megabytes (the rest are counted, not listed).
    public static let maximumPerRide = 5

    /// The feed entity's id, stable while the alert lasts (events name it).
    public var id: String
    /// The short text, in the feed's language or its first translation.
    public var header: String
    public var description: String?
    /// BCP-47 language of `header` and `description`, when the feed says.
    public var language: String?
    public var url: String?
    /// GTFS-Realtime effect in lower case: "no_service", "reduced_service", "detour", …
    public var effect: String
    /// GTFS-Realtime cause in lower case ("construction", …); nil when unknown.
    public var cause: String?
    /// When the alert applies; nil ends are open.
    public var activeFrom: Date?
    public var activeUntil: Date?

    public init(id: String, header: String, description: String? = nil, language: String? = nil, url: String? = nil,
                effect: String = "unknown_effect", cause: String? = nil, activeFrom: Date? = nil, activeUntil: Date? = nil) {
        self.id = id
        self.header = header
        self.description = description
        self.language = language
        self.url = url
        self.effect = effect
        self.cause = cause
        self.activeFrom = activeFrom
        self.activeUntil = activeUntil
    }
}
