/// Reads the non-quote data: characters, deaths, markets, weather.
public struct Listings {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Every character, or those whose name or full name contains `name` (any case).
    public func characters(matching name: String? = nil) throws(DatabaseError) -> [SeriesCharacter] {
        let statement = try database.prepare("""
            SELECT c.character_id, c.name, c.full_name, c.birthday, c.status, c.portrayed_by,
                   c.occupations, c.aliases, c.productions,
                   (SELECT count(*) FROM quotes q WHERE q.source = 'breakingbad' AND q.author = c.name COLLATE NOCASE),
                   \(Death.columns.split(separator: ",").map { "d." + $0.trimmingPrefix(" ") }.joined(separator: ", "))
              FROM characters c LEFT JOIN deaths d ON d.character = c.name COLLATE NOCASE
             WHERE ?1 IS NULL OR instr(lower(c.name), lower(?1)) > 0 OR instr(lower(c.full_name), lower(?1)) > 0
             ORDER BY (lower(c.name) = lower(?1)) DESC, c.name
            """)
        try statement.bind(name, at: 1)
        var characters: [SeriesCharacter] = []
        while try statement.step() {
            let death = statement.isNull(10) ? nil : Death(row: statement, from: 10)
            characters.append(SeriesCharacter(
                characterID: statement.int(0), name: statement.string(1), fullName: statement.optionalString(2),
                birthday: statement.optionalString(3), status: statement.optionalString(4),
                portrayedBy: statement.optionalString(5), occupations: statement.string(6),
                aliases: statement.string(7), productions: statement.string(8), death: death,
                quoteCount: statement.int(9)))
        }
        return characters
    }

    public func deaths() throws(DatabaseError) -> [Death] {
        let statement = try database.prepare("SELECT \(Death.columns) FROM deaths ORDER BY production, episode, death_id")
        var deaths: [Death] = []
        while try statement.step() { deaths.append(Death(row: statement)) }
        return deaths
    }

    /// Listed markets (not delisted ones), optionally by quote currency or only those with a warning or caution.
    public func markets(quoteCurrency: String? = nil, warningOnly: Bool = false) throws(DatabaseError) -> [Market] {
        let statement = try database.prepare("""
            SELECT market, quote_currency, base_currency, korean_name, english_name, warning, caution, delisted_at
              FROM markets
             WHERE delisted_at IS NULL AND (?1 IS NULL OR quote_currency = ?1)
               AND (?2 = 0 OR warning = 1 OR caution <> '[]')
             ORDER BY quote_currency, market
            """)
        try statement.bind(quoteCurrency, at: 1)
        try statement.bind(warningOnly, at: 2)
        var markets: [Market] = []
        while try statement.step() {
            markets.append(Market(
                market: statement.string(0), quoteCurrency: statement.string(1), baseCurrency: statement.string(2),
                koreanName: statement.optionalString(3), englishName: statement.optionalString(4),
                warning: statement.int(5) != 0, caution: statement.string(6), delistedAt: statement.optionalInt(7)))
        }
        return markets
    }

    /// The latest observation of each place, newest first.
    public func weather() throws(DatabaseError) -> [WeatherObservation] {
        let statement = try database.prepare("""
            SELECT lat, lon, observed_at, place, country, condition, description, temp, feels_like,
                   humidity, wind_speed, units
              FROM weather_observations w
             WHERE observed_at = (SELECT max(observed_at) FROM weather_observations v WHERE v.lat = w.lat AND v.lon = w.lon)
             ORDER BY observed_at DESC
            """)
        var observations: [WeatherObservation] = []
        while try statement.step() {
            observations.append(WeatherObservation(
                lat: statement.double(0), lon: statement.double(1), observedAt: statement.int(2),
                place: statement.optionalString(3), country: statement.optionalString(4),
                condition: statement.optionalString(5), description: statement.optionalString(6),
                temp: statement.optionalDouble(7), feelsLike: statement.optionalDouble(8),
                humidity: statement.optionalInt(9), windSpeed: statement.optionalDouble(10),
                units: statement.string(11)))
        }
        return observations
    }
}
