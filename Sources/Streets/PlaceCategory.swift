/// A kind of place people search for by a word ("pharmacy", "cafe"), and the OpenStreetMap
/// tags that make a feature one.
///
/// ```swift
/// PlaceCategory.named(["pharmacies"])   // .pharmacy (tags amenity=pharmacy, healthcare=pharmacy)
/// PlaceCategory.of(["shop": "supermarket"])?.label   // "Supermarket"
/// ```
///
/// The table is the documented list (docs/streets.md, checked by `PlaceCategoryTests`): each
/// category's words by language (`PlaceLanguage`: English, Finnish, Swedish, Portuguese, Spanish,
/// German, French), all compared folded (lowercase, no diacritics: "farmácia" is "farmacia").
/// A search in a region takes only the words of its languages (`RegionManifest.languages`), so
/// "apteekki" finds pharmacies in Tampere but not in São Paulo (`languageNote` says why).
/// An exact name beats a category word (`PlaceRanking`): a stop named "Rautatieasema" first.
public struct PlaceCategory: Hashable, Sendable {
    /// Stable identifier, e.g. "pharmacy".
    public var id: String
    /// What a result of this category is called when the feature has no name.
    public var label: String
    /// Folded words or phrases that ask for it, by language code (`PlaceLanguage.code`); a word
    /// may be of several languages ("cafe").
    public var wordsByLanguage: [String: [String]]
    /// Every word, each once, in the table's language order.
    public var words: [String]
    /// `key=value` tags that make a feature one.
    public var tags: [String]

    public static let all: [PlaceCategory] = [
        .init("pharmacy", "Pharmacy", ["en": ["pharmacy", "pharmacies", "chemist", "drugstore"], "fi": ["apteekki"], "sv": ["apotek"], "pt": ["farmacia", "farmacias", "drogaria"], "es": ["farmacia", "farmacias"], "de": ["apotheke"], "fr": ["pharmacie"]],
              ["amenity=pharmacy", "healthcare=pharmacy"]),
        .init("cafe", "Cafe", ["en": ["cafe", "cafes", "coffee", "coffee shop"], "fi": ["kahvila"], "sv": ["kafe", "cafe"], "pt": ["cafe", "cafeteria"], "es": ["cafe", "cafeteria"], "de": ["cafe", "kaffee"], "fr": ["cafe"]],
              ["amenity=cafe"]),
        .init("supermarket", "Supermarket", ["en": ["supermarket", "supermarkets", "grocery", "groceries", "grocery store", "food store"], "fi": ["kauppa", "ruokakauppa"], "sv": ["mataffar", "livsmedelsbutik"], "pt": ["supermercado", "supermercados"], "es": ["supermercado", "supermercados"], "de": ["supermarkt"], "fr": ["supermarche"]],
              ["shop=supermarket"]),
        .init("convenience", "Convenience store", ["en": ["convenience", "convenience store", "kiosk"], "fi": ["kioski"], "sv": ["narbutik", "kiosk"], "pt": ["loja de conveniencia"], "es": ["tienda de conveniencia"], "de": ["spati", "kiosk"], "fr": ["superette"]],
              ["shop=convenience", "shop=kiosk"]),
        .init("bakery", "Bakery", ["en": ["bakery", "bakeries"], "fi": ["leipomo"], "sv": ["bageri"], "pt": ["padaria"], "es": ["panaderia"], "de": ["backerei"], "fr": ["boulangerie"]],
              ["shop=bakery"]),
        .init("restaurant", "Restaurant", ["en": ["restaurant", "restaurants"], "fi": ["ravintola"], "sv": ["restaurang"], "pt": ["restaurante", "restaurantes"], "es": ["restaurante", "restaurantes"], "de": ["restaurant"], "fr": ["restaurant"]],
              ["amenity=restaurant"]),
        .init("fast_food", "Fast food", ["en": ["fast food", "fastfood", "takeaway"], "fi": ["pikaruoka"], "sv": ["snabbmat"], "pt": ["lanchonete"], "es": ["comida rapida"], "de": ["imbiss", "fastfood"], "fr": ["restauration rapide", "fast food"]],
              ["amenity=fast_food"]),
        .init("bar", "Bar", ["en": ["bar", "bars", "pub", "pubs"], "fi": ["baari", "pub"], "sv": ["bar", "pub"], "pt": ["bar", "boteco"], "es": ["bar"], "de": ["bar", "kneipe"], "fr": ["bar"]],
              ["amenity=bar", "amenity=pub"]),
        .init("atm", "ATM", ["en": ["atm", "atms", "cash machine"], "fi": ["pankkiautomaatti"], "sv": ["bankomat"], "pt": ["caixa eletronico"], "es": ["cajero", "cajero automatico"], "de": ["geldautomat", "bankomat"], "fr": ["distributeur"]],
              ["amenity=atm"]),
        .init("bank", "Bank", ["en": ["bank", "banks"], "fi": ["pankki"], "sv": ["bank"], "pt": ["banco"], "es": ["banco"], "de": ["bank"], "fr": ["banque"]],
              ["amenity=bank"]),
        .init("toilets", "Toilets", ["en": ["toilet", "toilets", "restroom", "restrooms", "wc", "bathroom"], "fi": ["vessa", "wc"], "sv": ["toalett", "wc"], "pt": ["banheiro"], "es": ["aseos"], "de": ["toilette", "wc"], "fr": ["toilette", "toilettes", "wc"]],
              ["amenity=toilets"]),
        .init("parking", "Parking", ["en": ["parking", "car park", "parking lot"], "fi": ["pysakointi", "parkkipaikka"], "sv": ["parkering"], "pt": ["estacionamento"], "es": ["estacionamiento", "aparcamiento", "parking"], "de": ["parkplatz"], "fr": ["parking"]],
              ["amenity=parking"]),
        .init("bicycle_parking", "Bicycle parking", ["en": ["bicycle parking", "bike parking"], "fi": ["pyoraparkki"], "sv": ["cykelparkering"], "pt": ["bicicletario"], "es": ["aparcabicis"], "de": ["fahrradstellplatz"]],
              ["amenity=bicycle_parking"]),
        .init("fuel", "Fuel", ["en": ["fuel", "gas station", "petrol station", "filling station"], "fi": ["huoltoasema"], "sv": ["bensinstation", "mack"], "pt": ["posto de gasolina", "posto de combustivel"], "es": ["gasolinera"], "de": ["tankstelle"], "fr": ["station service"]],
              ["amenity=fuel"]),
        .init("charging", "Charging station", ["en": ["charging station", "ev charging", "charger"], "fi": ["latausasema"], "sv": ["laddstation"], "pt": ["eletroposto"], "es": ["electrolinera"], "de": ["ladestation"], "fr": ["borne de recharge"]],
              ["amenity=charging_station"]),
        .init("taxi", "Taxi", ["en": ["taxi", "taxi stand"], "fi": ["taksi"], "sv": ["taxi"], "pt": ["taxi", "ponto de taxi"], "es": ["taxi", "parada de taxi"], "de": ["taxi", "taxistand"], "fr": ["taxi"]],
              ["amenity=taxi"]),
        .init("hotel", "Hotel", ["en": ["hotel", "hotels", "hostel"], "fi": ["hotelli"], "sv": ["hotell"], "pt": ["hotel", "pousada", "hoteis"], "es": ["hotel", "hoteles"], "de": ["hotel", "hotels"], "fr": ["hotel", "hotels"]],
              ["tourism=hotel", "tourism=hostel", "tourism=guest_house", "tourism=motel"]),
        .init("hospital", "Hospital", ["en": ["hospital", "hospitals"], "fi": ["sairaala"], "sv": ["sjukhus"], "pt": ["hospital", "hospitais"], "es": ["hospital", "hospitales"], "de": ["krankenhaus"], "fr": ["hopital"]],
              ["amenity=hospital", "healthcare=hospital"]),
        .init("clinic", "Clinic", ["en": ["clinic", "clinics", "health centre", "health center"], "fi": ["terveysasema"], "sv": ["vardcentral"], "pt": ["clinica", "posto de saude"], "es": ["clinica", "centro de salud"], "de": ["klinik"], "fr": ["clinique"]],
              ["amenity=clinic", "healthcare=clinic", "healthcare=centre"]),
        .init("doctor", "Doctor", ["en": ["doctor", "doctors"], "fi": ["laakari"], "sv": ["lakare"], "pt": ["medico"], "es": ["medico"], "de": ["arzt"], "fr": ["medecin"]],
              ["amenity=doctors", "healthcare=doctor"]),
        .init("dentist", "Dentist", ["en": ["dentist", "dentists"], "fi": ["hammaslaakari"], "sv": ["tandlakare"], "pt": ["dentista"], "es": ["dentista"], "de": ["zahnarzt"], "fr": ["dentiste"]],
              ["amenity=dentist", "healthcare=dentist"]),
        .init("post_office", "Post office", ["en": ["post office", "post"], "fi": ["posti"], "sv": ["post", "postkontor"], "pt": ["correios", "agencia dos correios"], "es": ["correos", "oficina de correos"], "de": ["post", "postamt"], "fr": ["bureau de poste", "la poste"]],
              ["amenity=post_office"]),
        .init("library", "Library", ["en": ["library", "libraries"], "fi": ["kirjasto"], "sv": ["bibliotek"], "pt": ["biblioteca"], "es": ["biblioteca"], "de": ["bibliothek", "bucherei"], "fr": ["bibliotheque"]],
              ["amenity=library"]),
        .init("school", "School", ["en": ["school", "schools"], "fi": ["koulu"], "sv": ["skola"], "pt": ["escola"], "es": ["escuela"], "de": ["schule"], "fr": ["ecole"]],
              ["amenity=school"]),
        .init("kindergarten", "Kindergarten", ["en": ["kindergarten", "daycare"], "fi": ["paivakoti"], "sv": ["forskola", "dagis"], "pt": ["creche"], "es": ["guarderia"], "de": ["kindergarten", "kita"], "fr": ["ecole maternelle", "creche"]],
              ["amenity=kindergarten"]),
        .init("university", "University", ["en": ["university", "college"], "fi": ["yliopisto"], "sv": ["universitet"], "pt": ["universidade", "faculdade"], "es": ["universidad"], "de": ["universitat", "hochschule"], "fr": ["universite"]],
              ["amenity=university", "amenity=college"]),
        .init("museum", "Museum", ["en": ["museum", "museums"], "fi": ["museo"], "sv": ["museum"], "pt": ["museu"], "es": ["museo"], "de": ["museum"], "fr": ["musee"]],
              ["tourism=museum"]),
        .init("cinema", "Cinema", ["en": ["cinema", "movies", "movie theatre"], "fi": ["elokuvateatteri"], "sv": ["biograf"], "pt": ["cinema"], "es": ["cine"], "de": ["kino"], "fr": ["cinema"]],
              ["amenity=cinema"]),
        .init("theatre", "Theatre", ["en": ["theatre", "theater"], "fi": ["teatteri"], "sv": ["teater"], "pt": ["teatro"], "es": ["teatro"], "de": ["theater"], "fr": ["theatre"]],
              ["amenity=theatre"]),
        .init("attraction", "Attraction", ["en": ["attraction", "sights", "sightseeing", "viewpoint"], "fi": ["nahtavyys"], "sv": ["sevardhet", "utsiktspunkt"], "pt": ["atracao", "ponto turistico", "mirante"], "es": ["atraccion", "mirador"], "de": ["sehenswurdigkeit", "aussichtspunkt"], "fr": ["attraction", "point de vue"]],
              ["tourism=attraction", "tourism=viewpoint"]),
        .init("park", "Park", ["en": ["park", "parks"], "fi": ["puisto"], "sv": ["park"], "pt": ["parque"], "es": ["parque"], "de": ["park"], "fr": ["parc"]],
              ["leisure=park"]),
        .init("playground", "Playground", ["en": ["playground"], "fi": ["leikkipuisto"], "sv": ["lekplats"], "pt": ["parquinho", "parque infantil"], "es": ["parque infantil"], "de": ["spielplatz"], "fr": ["aire de jeux"]],
              ["leisure=playground"]),
        .init("sports", "Sports centre", ["en": ["gym", "sports centre", "sports center", "swimming pool"], "fi": ["uimahalli", "kuntosali"], "sv": ["simhall"], "pt": ["academia", "piscina"], "es": ["gimnasio", "piscina"], "de": ["fitnessstudio", "schwimmbad"], "fr": ["salle de sport", "piscine"]],
              ["leisure=sports_centre", "leisure=fitness_centre", "leisure=swimming_pool"]),
        .init("station", "Station", ["en": ["station", "train station", "railway station"], "fi": ["rautatieasema", "asema"], "sv": ["jarnvagsstation", "station"], "pt": ["estacao", "estacao de trem"], "es": ["estacion", "estacion de tren"], "de": ["bahnhof"], "fr": ["gare", "station"]],
              ["railway=station", "railway=halt", "public_transport=station"]),
        .init("bus_station", "Bus station", ["en": ["bus station"], "fi": ["linja autoasema"], "sv": ["busstation", "bussterminal"], "pt": ["rodoviaria", "terminal de onibus"], "es": ["estacion de autobuses", "terminal de autobuses"], "de": ["busbahnhof"], "fr": ["gare routiere"]],
              ["amenity=bus_station"]),
        .init("police", "Police", ["en": ["police"], "fi": ["poliisi"], "sv": ["polis"], "pt": ["policia", "delegacia"], "es": ["policia", "comisaria"], "de": ["polizei"], "fr": ["police", "commissariat"]],
              ["amenity=police"]),
        .init("place_of_worship", "Place of worship", ["en": ["church", "place of worship"], "fi": ["kirkko"], "sv": ["kyrka"], "pt": ["igreja"], "es": ["iglesia"], "de": ["kirche"], "fr": ["eglise"]],
              ["amenity=place_of_worship"]),
        .init("office", "Office", ["en": ["office", "offices"], "fi": ["toimisto"], "sv": ["kontor"], "pt": ["escritorio"], "es": ["oficina"], "de": ["buro"], "fr": ["bureau"]],
              []),
    ]

    init(_ id: String, _ label: String, _ wordsByLanguage: [String: [String]], _ tags: [String]) {
        self.id = id
        self.label = label
        self.wordsByLanguage = wordsByLanguage
        var seen = Set<String>()
        words = PlaceLanguage.all.flatMap { wordsByLanguage[$0.code] ?? [] }.filter { seen.insert($0).inserted }
        self.tags = tags
    }

    /// The languages `word` is a word of here, in the table's order.
    public func languages(of word: String) -> [String] {
        PlaceLanguage.all.map(\.code).filter { wordsByLanguage[$0]?.contains(word) == true }
    }

    /// Whether `word` asks for this category in a region of `languages` (nil: any language).
    func accepts(_ word: String, languages: Set<String>?) -> Bool {
        guard let languages else { return words.contains(word) }
        return languages.contains { wordsByLanguage[$0]?.contains(word) == true }
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
    /// Only the words of `languages` (nil: any).
    public static func closest(in words: [String], languages: Set<String>? = nil)
        -> (category: PlaceCategory, word: String, edits: Int, rest: [String])? {
        var best: (category: PlaceCategory, word: String, edits: Int, rest: [String])?
        for length in stride(from: min(3, words.count), through: 1, by: -1) {
            for start in 0...(words.count - length) {
                let phrase = Array(words[start..<(start + length)].joined(separator: " "))
                let allowed = EditDistance.allowed(forLength: phrase.count)
                guard allowed > 0 else { continue }
                for entry in spelledWords where abs(entry.letters.count - phrase.count) <= allowed
                    && languages.map({ !$0.isDisjoint(with: entry.languages) }) ?? true {
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
    private static let spelledWords: [(category: PlaceCategory, word: String, letters: [Character], languages: Set<String>)] =
        all.flatMap { category in category.words.map { (category, $0, Array($0), Set(category.languages(of: $0))) } }

    /// The category asked for by `words` (folded query words), and the words that are left:
    /// the longest phrase wins ("bus station" over "station"), found anywhere in the query.
    /// Only the words of `languages` count (nil: any language).
    public static func named(in words: [String], languages: Set<String>? = nil) -> (category: PlaceCategory, rest: [String])? {
        for length in stride(from: min(3, words.count), through: 1, by: -1) {
            for start in 0...(words.count - length) {
                let phrase = words[start..<(start + length)].joined(separator: " ")
                if let category = all.first(where: { $0.accepts(phrase, languages: languages) }) {
                    return (category, Array(words[..<start] + words[(start + length)...]))
                }
            }
        }
        return nil
    }

    /// When `words` hold a category word of none of `languages` (and no word of them): what it
    /// is and what asks for it in `regionName`, "apteekki is Finnish; in saopaulo: farmacia /
    /// pharmacy". Nil when the words name a category in these languages, or none at all.
    public static func languageNote(for words: [String], languages: Set<String>, regionName: String) -> String? {
        guard named(in: words, languages: languages) == nil, let found = named(in: words) else { return nil }
        let phrase = words.filter { !found.rest.contains($0) }.joined(separator: " ")
        let spoken = found.category.languages(of: phrase).map(PlaceLanguage.name(of:)).joined(separator: " or ")
        // The region's own language first, English last: the first word of each.
        let codes = PlaceLanguage.all.map(\.code).filter { languages.contains($0) && $0 != PlaceLanguage.always } + [PlaceLanguage.always]
        var seen = Set<String>()
        let here = codes.compactMap { found.category.wordsByLanguage[$0]?.first }.filter { seen.insert($0).inserted }
        return "\(phrase) is \(spoken); in \(regionName): \(here.joined(separator: " / "))"
    }
}
