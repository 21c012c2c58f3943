import QuoteModels
/// What a hub publishes: each source's complete data, read as JSON in the shape its adapter
/// already reads (a custom list in the Gist format, Upbit's market array, OpenWeatherMap's
/// observation) or, where the upstream has no such list, a document of this project's
/// (the happiness archive, the Breaking Bad bundle). SQLite's json_object writes every value,
/// so escaping is SQLite's, and rows stream to `write` one at a time: a million-quote list is
/// never one string in memory.
public struct FeedQueries {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    /// A source the hub can publish, with what the manifest says of it.
    public struct PublishedSource: Sendable, Equatable {
        public let name: String
        public let kind: String
        /// When it last synced (nil: never, e.g. an imported list).
        public let synced: Int?
    }

    /// Every source with data of its own (the built-in starter set is in every store already).
    public func sources() throws(StoreError) -> [PublishedSource] {
        let records = try SyncStateRepository(database: database).records()
        return try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("SELECT name, kind FROM sources WHERE kind <> 'builtin' ORDER BY name")
            var result: [PublishedSource] = []
            while try statement.step() {
                let name = statement.string(0)
                result.append(PublishedSource(name: name, kind: statement.string(1), synced: records[name]?.lastSuccess))
            }
            return result
        }
    }

    /// How many rows `source` holds (quotes, or its records for the sources without quotes).
    public func rowCount(source: PublishedSource) throws(StoreError) -> Int {
        try database.storeOperation { () throws(DatabaseError) in
            switch source.kind {
            case "upbit": return try database.scalarInt("SELECT count(*) FROM markets") ?? 0
            case "weather": return try database.scalarInt("SELECT count(*) FROM weather_observations") ?? 0
            case "breakingbad":
                return try database.scalarInt("SELECT (SELECT count(*) FROM quotes WHERE source = 'breakingbad') + (SELECT count(*) FROM characters)") ?? 0
            default: return try database.scalarInt("SELECT count(*) FROM quotes WHERE source = ?1", [.text(source.name)]) ?? 0
            }
        }
    }

    /// Streams `source`'s document to `write` in pieces; returns its row count (quotes, markets,
    /// observations; characters and deaths count too). Nil for a source with nothing to publish.
    /// Fails with what `write` throws, or with the store's failure as `storeFailure` says it.
    public func write<Failure: Error>(source: PublishedSource, storeFailure: @escaping (StoreError) -> Failure,
                                      to write: (String) throws(Failure) -> Void) throws(Failure) -> Int? {
        let rows = Rows(database: database, failure: storeFailure)
        switch source.kind {
        case "custom": return try rows.array(Self.customList, [.text(source.name)], write)
        case "upbit": return try rows.array(Self.markets, [], write)
        case "weather":
            guard let observation = try rows.reading({ () throws(DatabaseError) in try database.scalarString(Self.weather) }) else { return nil }
            try write(observation)
            return 1
        case "happiness":
            try write(#"{"quotes":"#)
            var count = try rows.array(Self.happinessQuotes, [], write)
            try write(#","days":"#)
            count += try rows.array(Self.happinessDays, [], write)
            try write("}")
            return count
        case "breakingbad":
            var count = 0
            for (index, (key, sql)) in [("quotes", Self.breakingBadQuotes), ("characters", Self.characters),
                                         ("deaths", Self.deaths), ("unknown_characters", Self.unknownCharacters)].enumerated() {
                try write((index == 0 ? "{" : ",") + "\"\(key)\":")
                count += try rows.array(sql, [], write)
            }
            try write("}")
            return count
        default:
            return nil
        }
    }

    /// Statements whose rows go to a writer as they are read, the store's failures said as the
    /// writer's own (`failure`).
    private struct Rows<Failure: Error> {
        let database: Database
        let failure: (StoreError) -> Failure

        func reading<T>(_ body: () throws(DatabaseError) -> T) throws(Failure) -> T {
            do {
                return try database.storeOperation(body)
            } catch {
                throw failure(error)
            }
        }

        /// `[row,row,...]`, one JSON value per row of `sql`.
        func array(_ sql: String, _ values: [SQLValue], _ write: (String) throws(Failure) -> Void) throws(Failure) -> Int {
            let statement = try reading { () throws(DatabaseError) in
                let statement = try database.prepare(sql)
                try statement.bind(values)
                return statement
            }
            var count = 0
            try write("[")
            while try reading({ () throws(DatabaseError) in try statement.step() }) {
                try write((count == 0 ? "" : ",") + statement.string(0))
                count += 1
            }
            try write("]")
            return count
        }
    }

    static let customList = """
        SELECT json_patch(json_object('id', CASE WHEN CAST(CAST(upstream_id AS INTEGER) AS TEXT) = upstream_id
                                                 THEN CAST(upstream_id AS INTEGER) ELSE upstream_id END,
                                      'category', category, 'text', text, 'source', author),
                          json_object('published', strftime('%Y-%m-%dT%H:%M:%SZ', published, 'unixepoch')))
          FROM quotes WHERE source = ?1 ORDER BY id
        """
    static let happinessQuotes = """
        SELECT json_object('id', CAST(upstream_id AS INTEGER), 'content', text, 'author', author)
          FROM quotes WHERE source = 'happiness' ORDER BY id
        """
    static let happinessDays = """
        SELECT json_object('day', d.day, 'id', CAST(q.upstream_id AS INTEGER))
          FROM daily_quotes d JOIN quotes q ON q.id = d.quote_id WHERE d.source = 'happiness' ORDER BY d.day
        """
    static let breakingBadQuotes = """
        SELECT json_object('quote_id', CAST(upstream_id AS INTEGER), 'quote', text, 'character', author,
                           'production', production, 'episode', episode)
          FROM quotes WHERE source = 'breakingbad' ORDER BY id
        """
    static let characters = """
        SELECT json_object('character_id', character_id, 'name', name, 'full_name', full_name, 'birthday', birthday,
                           'status', status, 'portrayed_by', portrayed_by, 'occupations', json(occupations),
                           'aliases', json(aliases), 'productions', json(productions), 'images', json(images),
                           'appearance', json(appearance))
          FROM characters ORDER BY character_id
        """
    static let deaths = """
        SELECT json_object('death_id', death_id, 'character', character, 'cause', cause, 'details', details,
                           'responsible', json(responsible), 'connected', json(connected), 'last_words', last_words,
                           'episode', episode, 'production', production, 'image', image)
          FROM deaths ORDER BY death_id
        """
    static let unknownCharacters = "SELECT json_quote(name) FROM unknown_characters ORDER BY name"
    /// Listed pairs only, as Upbit's /v1/market/all?is_details=true serves them.
    static let markets = """
        SELECT json_object('market', market, 'korean_name', korean_name, 'english_name', english_name,
                           'market_event', json_object('warning', json(CASE warning WHEN 1 THEN 'true' ELSE 'false' END),
                                                       'caution', (SELECT json_group_object(value, json('true')) FROM json_each(caution))))
          FROM markets WHERE delisted_at IS NULL ORDER BY market
        """
    /// The newest observation, as OpenWeatherMap's /data/2.5/weather serves it (with the units it was asked in).
    static let weather = """
        SELECT json_object('coord', json_object('lat', lat, 'lon', lon), 'dt', observed_at, 'name', place,
                           'weather', json_array(json_object('main', condition, 'description', description)),
                           'main', json_object('temp', temp, 'feels_like', feels_like, 'temp_min', temp_min, 'temp_max', temp_max,
                                               'pressure', pressure, 'humidity', humidity),
                           'wind', json_object('speed', wind_speed, 'deg', wind_deg), 'clouds', json_object('all', clouds),
                           'sys', json_object('country', country, 'sunrise', sunrise, 'sunset', sunset), 'units', units)
          FROM weather_observations ORDER BY observed_at DESC, rowid DESC LIMIT 1
        """
}
