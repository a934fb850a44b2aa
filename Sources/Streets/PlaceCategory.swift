/// A kind of place people search for by a word ("pharmacy", "cafe"), and the OpenStreetMap
/// tags that make a feature one.
///
/// ```swift
/// PlaceCategory.named(["pharmacies"])   // .pharmacy (tags amenity=pharmacy, healthcare=pharmacy)
/// PlaceCategory.of(["shop": "supermarket"])?.label   // "Supermarket"
/// ```
///
/// The table is the documented list (docs/streets.md, checked by `PlaceCategoryTableTests`):
/// each category's words in English, Finnish, Swedish, Portuguese, Spanish, German and French,
/// in that order, all compared folded (lowercase, no diacritics: "farmácia" is "farmacia").
/// An exact name beats a category word (`PlaceRanking`): a stop named "Rautatieasema" first.
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
        .init("pharmacy", "Pharmacy", ["pharmacy", "pharmacies", "chemist", "drugstore", "apteekki", "apotek", "farmacia", "farmacias", "drogaria", "apotheke", "pharmacie"],
              ["amenity=pharmacy", "healthcare=pharmacy"]),
        .init("cafe", "Cafe", ["cafe", "cafes", "coffee", "coffee shop", "kahvila", "kafe", "cafeteria", "kaffee"],
              ["amenity=cafe"]),
        .init("supermarket", "Supermarket", ["supermarket", "supermarkets", "grocery", "groceries", "grocery store", "food store", "kauppa", "ruokakauppa", "mataffar", "livsmedelsbutik", "supermercado", "supermercados", "supermarkt", "supermarche"],
              ["shop=supermarket"]),
        .init("convenience", "Convenience store", ["convenience", "convenience store", "kiosk", "kioski", "narbutik", "loja de conveniencia", "tienda de conveniencia", "spati", "superette"],
              ["shop=convenience", "shop=kiosk"]),
        .init("bakery", "Bakery", ["bakery", "bakeries", "leipomo", "bageri", "padaria", "panaderia", "backerei", "boulangerie"],
              ["shop=bakery"]),
        .init("restaurant", "Restaurant", ["restaurant", "restaurants", "ravintola", "restaurang", "restaurante", "restaurantes"],
              ["amenity=restaurant"]),
        .init("fast_food", "Fast food", ["fast food", "fastfood", "takeaway", "pikaruoka", "snabbmat", "lanchonete", "comida rapida", "imbiss", "restauration rapide"],
              ["amenity=fast_food"]),
        .init("bar", "Bar", ["bar", "bars", "pub", "pubs", "baari", "boteco", "kneipe"],
              ["amenity=bar", "amenity=pub"]),
        .init("atm", "ATM", ["atm", "atms", "cash machine", "pankkiautomaatti", "bankomat", "caixa eletronico", "cajero", "cajero automatico", "geldautomat", "distributeur"],
              ["amenity=atm"]),
        .init("bank", "Bank", ["bank", "banks", "pankki", "banco", "banque"],
              ["amenity=bank"]),
        .init("toilets", "Toilets", ["toilet", "toilets", "restroom", "restrooms", "wc", "bathroom", "vessa", "toalett", "banheiro", "aseos", "toilette", "toilettes"],
              ["amenity=toilets"]),
        .init("parking", "Parking", ["parking", "car park", "parking lot", "pysakointi", "parkkipaikka", "parkering", "estacionamento", "estacionamiento", "aparcamiento", "parkplatz"],
              ["amenity=parking"]),
        .init("bicycle_parking", "Bicycle parking", ["bicycle parking", "bike parking", "pyoraparkki", "cykelparkering", "bicicletario", "aparcabicis", "fahrradstellplatz"],
              ["amenity=bicycle_parking"]),
        .init("fuel", "Fuel", ["fuel", "gas station", "petrol station", "filling station", "huoltoasema", "bensinstation", "mack", "posto de gasolina", "posto de combustivel", "gasolinera", "tankstelle", "station service"],
              ["amenity=fuel"]),
        .init("charging", "Charging station", ["charging station", "ev charging", "charger", "latausasema", "laddstation", "eletroposto", "electrolinera", "ladestation", "borne de recharge"],
              ["amenity=charging_station"]),
        .init("taxi", "Taxi", ["taxi", "taxi stand", "taksi", "ponto de taxi", "parada de taxi", "taxistand"],
              ["amenity=taxi"]),
        .init("hotel", "Hotel", ["hotel", "hotels", "hostel", "hotelli", "hotell", "pousada", "hoteis", "hoteles"],
              ["tourism=hotel", "tourism=hostel", "tourism=guest_house", "tourism=motel"]),
        .init("hospital", "Hospital", ["hospital", "hospitals", "sairaala", "sjukhus", "hospitais", "hospitales", "krankenhaus", "hopital"],
              ["amenity=hospital", "healthcare=hospital"]),
        .init("clinic", "Clinic", ["clinic", "clinics", "health centre", "health center", "terveysasema", "vardcentral", "clinica", "posto de saude", "centro de salud", "klinik", "clinique"],
              ["amenity=clinic", "healthcare=clinic", "healthcare=centre"]),
        .init("doctor", "Doctor", ["doctor", "doctors", "laakari", "lakare", "medico", "arzt", "medecin"],
              ["amenity=doctors", "healthcare=doctor"]),
        .init("dentist", "Dentist", ["dentist", "dentists", "hammaslaakari", "tandlakare", "dentista", "zahnarzt", "dentiste"],
              ["amenity=dentist", "healthcare=dentist"]),
        .init("post_office", "Post office", ["post office", "post", "posti", "postkontor", "correios", "agencia dos correios", "correos", "oficina de correos", "postamt", "bureau de poste", "la poste"],
              ["amenity=post_office"]),
        .init("library", "Library", ["library", "libraries", "kirjasto", "bibliotek", "biblioteca", "bibliothek", "bucherei", "bibliotheque"],
              ["amenity=library"]),
        .init("school", "School", ["school", "schools", "koulu", "skola", "escola", "escuela", "schule", "ecole"],
              ["amenity=school"]),
        .init("kindergarten", "Kindergarten", ["kindergarten", "daycare", "paivakoti", "forskola", "dagis", "creche", "guarderia", "kita", "ecole maternelle"],
              ["amenity=kindergarten"]),
        .init("university", "University", ["university", "college", "yliopisto", "universitet", "universidade", "faculdade", "universidad", "universitat", "hochschule", "universite"],
              ["amenity=university", "amenity=college"]),
        .init("museum", "Museum", ["museum", "museums", "museo", "museu", "musee"],
              ["tourism=museum"]),
        .init("cinema", "Cinema", ["cinema", "movies", "movie theatre", "elokuvateatteri", "biograf", "cine", "kino"],
              ["amenity=cinema"]),
        .init("theatre", "Theatre", ["theatre", "theater", "teatteri", "teater", "teatro"],
              ["amenity=theatre"]),
        .init("attraction", "Attraction", ["attraction", "sights", "sightseeing", "viewpoint", "nahtavyys", "sevardhet", "utsiktspunkt", "atracao", "ponto turistico", "mirante", "atraccion", "mirador", "sehenswurdigkeit", "aussichtspunkt", "point de vue"],
              ["tourism=attraction", "tourism=viewpoint"]),
        .init("park", "Park", ["park", "parks", "puisto", "parque", "parc"],
              ["leisure=park"]),
        .init("playground", "Playground", ["playground", "leikkipuisto", "lekplats", "parquinho", "parque infantil", "spielplatz", "aire de jeux"],
              ["leisure=playground"]),
        .init("sports", "Sports centre", ["gym", "sports centre", "sports center", "swimming pool", "uimahalli", "kuntosali", "simhall", "academia", "piscina", "gimnasio", "fitnessstudio", "schwimmbad", "salle de sport", "piscine"],
              ["leisure=sports_centre", "leisure=fitness_centre", "leisure=swimming_pool"]),
        .init("station", "Station", ["station", "train station", "railway station", "rautatieasema", "asema", "jarnvagsstation", "estacao", "estacao de trem", "estacion", "estacion de tren", "bahnhof", "gare"],
              ["railway=station", "railway=halt", "public_transport=station"]),
        .init("bus_station", "Bus station", ["bus station", "linja autoasema", "busstation", "bussterminal", "rodoviaria", "terminal de onibus", "estacion de autobuses", "terminal de autobuses", "busbahnhof", "gare routiere"],
              ["amenity=bus_station"]),
        .init("police", "Police", ["police", "poliisi", "polis", "policia", "delegacia", "comisaria", "polizei", "commissariat"],
              ["amenity=police"]),
        .init("place_of_worship", "Place of worship", ["church", "place of worship", "kirkko", "kyrka", "igreja", "iglesia", "kirche", "eglise"],
              ["amenity=place_of_worship"]),
        .init("office", "Office", ["office", "offices", "toimisto", "kontor", "escritorio", "oficina", "buro", "bureau"],
              []),
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

    /// The category a misspelt word asks for ("pharmcy" → pharmacy, "farmacya" → pharmacy):
    /// the word of the table (a single word, or a phrase typed as its words) within the typos
    /// names are forgiven (`EditDistance.allowed`), fewest edits first; the word it was read as
    /// and the words left. Nil when none is close enough.
    public static func closest(in words: [String]) -> (category: PlaceCategory, word: String, edits: Int, rest: [String])? {
        var best: (category: PlaceCategory, word: String, edits: Int, rest: [String])?
        for length in stride(from: min(3, words.count), through: 1, by: -1) {
            for start in 0...(words.count - length) {
                let phrase = Array(words[start..<(start + length)].joined(separator: " "))
                let allowed = EditDistance.allowed(forLength: phrase.count)
                guard allowed > 0 else { continue }
                for entry in spelledWords where abs(entry.letters.count - phrase.count) <= allowed {
                    guard let edits = EditDistance.between(phrase, entry.letters, atMost: allowed),
                          edits < (best?.edits ?? .max) else { continue }
                    best = (entry.category, entry.word, edits, Array(words[..<start] + words[(start + length)...]))
                }
            }
        }
        return best
    }

    /// Every word of the table with its letters, split once: `closest` compares each of them
    /// with every typed word that matches no name, in every search.
    private static let spelledWords: [(category: PlaceCategory, word: String, letters: [Character])] =
        all.flatMap { category in category.words.map { (category, $0, Array($0)) } }

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
