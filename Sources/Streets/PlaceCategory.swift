/// A kind of place people search for by a word ("pharmacy", "cafe"), and the OpenStreetMap
/// tags that make a feature one.
///
/// ```swift
/// PlaceCategory.named(["pharmacies"])   // .pharmacy (tags amenity=pharmacy, healthcare=pharmacy)
/// PlaceCategory.of(["shop": "supermarket"])?.label   // "Supermarket"
/// ```
///
/// The table is the documented list (docs/streets.md): each category's words, in English and
/// Finnish, singular and plural, all compared folded (lowercase, no diacritics).
public struct PlaceCategory: Hashable, Sendable {
    /// Stable identifier, e.g. "pharmacy".
    public var id: String
    /// What a result of this category is called when the feature has no name.
    public var label: String
    /// Folded words or phrases that ask for it.
    public var words: [String]
    /// `key=value` tags that make a feature one.
    public var tags: [String]

    public static let all: [PlaceCategory] = [
        .init("pharmacy", "Pharmacy", ["pharmacy", "pharmacies", "chemist", "drugstore", "apteekki"],
              ["amenity=pharmacy", "healthcare=pharmacy"]),
        .init("cafe", "Cafe", ["cafe", "cafes", "coffee", "coffee shop", "kahvila"], ["amenity=cafe"]),
        .init("supermarket", "Supermarket", ["supermarket", "supermarkets", "grocery", "groceries", "grocery store",
                                              "food store", "kauppa", "ruokakauppa"], ["shop=supermarket"]),
        .init("convenience", "Convenience store", ["convenience", "convenience store", "kiosk", "kioski"],
              ["shop=convenience", "shop=kiosk"]),
        .init("bakery", "Bakery", ["bakery", "bakeries", "leipomo"], ["shop=bakery"]),
        .init("restaurant", "Restaurant", ["restaurant", "restaurants", "ravintola"], ["amenity=restaurant"]),
        .init("fast_food", "Fast food", ["fast food", "fastfood", "takeaway"], ["amenity=fast_food"]),
        .init("bar", "Bar", ["bar", "bars", "pub", "pubs", "baari"], ["amenity=bar", "amenity=pub"]),
        .init("atm", "ATM", ["atm", "atms", "cash machine", "pankkiautomaatti"], ["amenity=atm"]),
        .init("bank", "Bank", ["bank", "banks", "pankki"], ["amenity=bank"]),
        .init("toilets", "Toilets", ["toilet", "toilets", "restroom", "restrooms", "wc", "bathroom"], ["amenity=toilets"]),
        .init("parking", "Parking", ["parking", "car park", "parking lot", "pysakointi"], ["amenity=parking"]),
        .init("bicycle_parking", "Bicycle parking", ["bicycle parking", "bike parking"], ["amenity=bicycle_parking"]),
        .init("fuel", "Fuel", ["fuel", "gas station", "petrol station", "filling station", "huoltoasema"], ["amenity=fuel"]),
        .init("charging", "Charging station", ["charging station", "ev charging", "charger"], ["amenity=charging_station"]),
        .init("taxi", "Taxi", ["taxi", "taxi stand", "taksi"], ["amenity=taxi"]),
        .init("hotel", "Hotel", ["hotel", "hotels", "hostel", "hotelli"],
              ["tourism=hotel", "tourism=hostel", "tourism=guest_house", "tourism=motel"]),
        .init("hospital", "Hospital", ["hospital", "hospitals", "sairaala"], ["amenity=hospital", "healthcare=hospital"]),
        .init("clinic", "Clinic", ["clinic", "clinics", "health centre", "health center", "terveysasema"],
              ["amenity=clinic", "healthcare=clinic", "healthcare=centre"]),
        .init("doctor", "Doctor", ["doctor", "doctors", "laakari"], ["amenity=doctors", "healthcare=doctor"]),
        .init("dentist", "Dentist", ["dentist", "dentists", "hammaslaakari"], ["amenity=dentist", "healthcare=dentist"]),
        .init("post_office", "Post office", ["post office", "post", "posti"], ["amenity=post_office"]),
        .init("library", "Library", ["library", "libraries", "kirjasto"], ["amenity=library"]),
        .init("school", "School", ["school", "schools", "koulu"], ["amenity=school"]),
        .init("kindergarten", "Kindergarten", ["kindergarten", "daycare", "paivakoti"], ["amenity=kindergarten"]),
        .init("university", "University", ["university", "college", "yliopisto"], ["amenity=university", "amenity=college"]),
        .init("museum", "Museum", ["museum", "museums", "museo"], ["tourism=museum"]),
        .init("cinema", "Cinema", ["cinema", "movies", "movie theatre", "elokuvateatteri"], ["amenity=cinema"]),
        .init("theatre", "Theatre", ["theatre", "theater", "teatteri"], ["amenity=theatre"]),
        .init("attraction", "Attraction", ["attraction", "sights", "sightseeing", "viewpoint"],
              ["tourism=attraction", "tourism=viewpoint"]),
        .init("park", "Park", ["park", "parks", "puisto"], ["leisure=park"]),
        .init("playground", "Playground", ["playground", "leikkipuisto"], ["leisure=playground"]),
        .init("sports", "Sports centre", ["gym", "sports centre", "sports center", "swimming pool", "uimahalli"],
              ["leisure=sports_centre", "leisure=fitness_centre", "leisure=swimming_pool"]),
        .init("station", "Station", ["station", "train station", "railway station", "rautatieasema", "asema"],
              ["railway=station", "railway=halt", "public_transport=station"]),
        .init("bus_station", "Bus station", ["bus station", "linja autoasema"], ["amenity=bus_station"]),
        .init("police", "Police", ["police", "poliisi"], ["amenity=police"]),
        .init("place_of_worship", "Place of worship", ["church", "place of worship", "kirkko"], ["amenity=place_of_worship"]),
        .init("office", "Office", ["office", "offices"], []),
    ]

    init(_ id: String, _ label: String, _ words: [String], _ tags: [String]) {
        self.id = id
        self.label = label
        self.words = words
        self.tags = tags
    }

    /// Tags of the `office=*` key count as "office" whatever their value.
    private func matches(_ tag: String) -> Bool {
        tags.contains(tag) || (id == "office" && tag.hasPrefix("office="))
    }

    /// The category a `key=value` tag belongs to, if any.
    public static func of(tag: String) -> PlaceCategory? {
        all.first { $0.matches(tag) }
    }

    /// The category of a feature's tags (the first tag, in `OSMPlaceExtractor.poiKeys` order, that has one).
    static func of(_ tags: [String: String]) -> (category: PlaceCategory, tag: String)? {
        for key in OSMPlaceExtractor.poiKeys + ["public_transport"] {
            guard let value = tags[key], !value.isEmpty, value != "no" else { continue }
            if let category = of(tag: "\(key)=\(value)") { return (category, "\(key)=\(value)") }
        }
        return nil
    }

    /// The category asked for by `words` (folded query words), and the words that are left:
    /// the longest phrase wins ("bus station" over "station"), found anywhere in the query.
    public static func named(in words: [String]) -> (category: PlaceCategory, rest: [String])? {
        for length in stride(from: min(3, words.count), through: 1, by: -1) {
            for start in 0...(words.count - length) {
                let phrase = words[start..<(start + length)].joined(separator: " ")
                if let category = all.first(where: { $0.words.contains(phrase) }) {
                    return (category, Array(words[..<start] + words[(start + length)...]))
                }
            }
        }
        return nil
    }
}
