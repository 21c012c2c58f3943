import QuoteModels
import QuoteText
/// The character columns `characters(matching:)` reads, the quote count last.
enum CharacterColumn: String, ColumnList {
    case character_id = "c.character_id", name = "c.name", full_name = "c.full_name", birthday = "c.birthday"
    case status = "c.status", portrayed_by = "c.portrayed_by", occupations = "c.occupations", aliases = "c.aliases"
    case productions = "c.productions"
    // English on purpose: SQL
    case quote_count = "(SELECT count(*) FROM quotes q WHERE q.source = 'breakingbad' AND q.author = c.name COLLATE NOCASE)"
}

enum MarketColumn: String, ColumnList {
    case market, quote_currency, base_currency, korean_name, english_name, warning, caution, delisted_at
}

enum WeatherColumn: String, ColumnList {
    case lat, lon, observed_at, place, country, condition, description, temp, feels_like, humidity, wind_speed, units
}

/// Reads the non-quote data: characters, deaths, markets, weather.
public struct Listings {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    /// Every character, or those whose name or full name contains `name` (any case).
    public func characters(matching name: String? = nil) throws(StoreError) -> [SeriesCharacter] {
        try database.storeOperation { () throws(DatabaseError) in
            try database.defineCaseFolding()
            let statement = try database.prepare("""
                SELECT \(CharacterColumn.sql()), \(Death.Column.sql(table: "d"))
                  FROM characters c LEFT JOIN deaths d ON d.character = c.name COLLATE NOCASE
                 WHERE ?1 IS NULL OR instr(quoted_fold(c.name), ?1) > 0 OR instr(quoted_fold(c.full_name), ?1) > 0
                 ORDER BY (quoted_fold(c.name) = ?1) DESC, c.name
                """)
            try statement.bind(name.map(CaseFolding.fold), at: 1)
            var characters: [SeriesCharacter] = []
            let deathOffset = Int32(CharacterColumn.allCases.count)
            while try statement.step() {
                let death = statement.isNull(Death.Column.death_id, after: deathOffset) ? nil : Death(row: statement, after: deathOffset)
                characters.append(SeriesCharacter(
                    characterID: statement.int(CharacterColumn.character_id), name: statement.string(CharacterColumn.name),
                    fullName: statement.optionalString(CharacterColumn.full_name), birthday: statement.optionalString(CharacterColumn.birthday),
                    status: statement.optionalString(CharacterColumn.status), portrayedBy: statement.optionalString(CharacterColumn.portrayed_by),
                    occupations: statement.string(CharacterColumn.occupations), aliases: statement.string(CharacterColumn.aliases),
                    productions: statement.string(CharacterColumn.productions), death: death,
                    quoteCount: statement.int(CharacterColumn.quote_count)))
            }
            return characters
        }
    }

    public func deaths() throws(StoreError) -> [Death] {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("SELECT \(Death.Column.sql()) FROM deaths ORDER BY production, episode, death_id")
            var deaths: [Death] = []
            while try statement.step() { deaths.append(Death(row: statement)) }
            return deaths
        }
    }

    /// Listed markets (not delisted ones), optionally by quote currency or only those with a warning or caution.
    public func markets(quoteCurrency: String? = nil, warningOnly: Bool = false) throws(StoreError) -> [Market] {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("""
                SELECT \(MarketColumn.sql()) FROM markets
                 WHERE delisted_at IS NULL AND (?1 IS NULL OR quote_currency = ?1)
                   AND (?2 = 0 OR warning = 1 OR caution <> '[]')
                 ORDER BY quote_currency, market
                """)
            try statement.bind(quoteCurrency, at: 1)
            try statement.bind(warningOnly, at: 2)
            var markets: [Market] = []
            while try statement.step() {
                markets.append(Market(
                    market: statement.string(MarketColumn.market), quoteCurrency: statement.string(MarketColumn.quote_currency),
                    baseCurrency: statement.string(MarketColumn.base_currency), koreanName: statement.optionalString(MarketColumn.korean_name),
                    englishName: statement.optionalString(MarketColumn.english_name), warning: statement.int(MarketColumn.warning) != 0,
                    caution: statement.string(MarketColumn.caution), delistedAt: statement.optionalInt(MarketColumn.delisted_at)))
            }
            return markets
        }
    }

    /// The latest observation of each place, newest first.
    public func weather() throws(StoreError) -> [WeatherObservation] {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("""
                SELECT \(WeatherColumn.sql()) FROM weather_observations w
                 WHERE observed_at = (SELECT max(observed_at) FROM weather_observations v WHERE v.lat = w.lat AND v.lon = w.lon)
                 ORDER BY observed_at DESC
                """)
            var observations: [WeatherObservation] = []
            while try statement.step() {
                observations.append(WeatherObservation(
                    lat: statement.double(WeatherColumn.lat), lon: statement.double(WeatherColumn.lon),
                    observedAt: statement.int(WeatherColumn.observed_at), place: statement.optionalString(WeatherColumn.place),
                    country: statement.optionalString(WeatherColumn.country), condition: statement.optionalString(WeatherColumn.condition),
                    description: statement.optionalString(WeatherColumn.description), temp: statement.optionalDouble(WeatherColumn.temp),
                    feelsLike: statement.optionalDouble(WeatherColumn.feels_like), humidity: statement.optionalInt(WeatherColumn.humidity),
                    windSpeed: statement.optionalDouble(WeatherColumn.wind_speed), units: statement.string(WeatherColumn.units)))
            }
            return observations
        }
    }
}
