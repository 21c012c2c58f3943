import QuoteModels
/// Writes the non-quote data (characters, deaths, markets, weather), touching
/// only rows that changed. Call inside the caller's transaction.
public struct RecordWriter {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    /// A Breaking Bad character as decoded from upstream; list fields as JSON text.
    public struct CharacterRecord: Sendable {
        public var id: Int, name: String, fullName: String?, birthday: String?, status: String?, portrayedBy: String?
        public var occupations = "[]", aliases = "[]", productions = "[]", images = "[]", appearance = "{}"

        public init(id: Int, name: String, fullName: String?, birthday: String?, status: String?, portrayedBy: String?) {
            self.id = id
            self.name = name
            self.fullName = fullName
            self.birthday = birthday
            self.status = status
            self.portrayedBy = portrayedBy
        }

        var hash: Int {
            var hasher = FNV1a()
            for field in [name, fullName, birthday, status, portrayedBy, occupations, aliases, productions, images, appearance] {
                hasher.combine(field)
            }
            return hasher.signed
        }
    }

    public func upsertCharacters(_ characters: [CharacterRecord], now: Int) throws(StoreError) -> ChangeCounts {
        try database.storeOperation { () throws(DatabaseError) in
            var counts = ChangeCounts()
            let existing = try database.prepare("SELECT content_hash FROM characters WHERE character_id = ?1")
            let write = try database.prepare("""
                INSERT INTO characters (character_id, name, full_name, birthday, status, portrayed_by, occupations, aliases,
                                        productions, images, appearance, first_seen, last_seen, content_hash)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12, ?13)
                ON CONFLICT (character_id) DO UPDATE SET
                    name = excluded.name, full_name = excluded.full_name, birthday = excluded.birthday,
                    status = excluded.status, portrayed_by = excluded.portrayed_by, occupations = excluded.occupations,
                    aliases = excluded.aliases, productions = excluded.productions, images = excluded.images,
                    appearance = excluded.appearance, last_seen = excluded.last_seen, content_hash = excluded.content_hash
                """)
            let forgetUnknown = try database.prepare("DELETE FROM unknown_characters WHERE name = ?1")
            for character in characters {
                let hash = character.hash
                existing.reset()
                try existing.bind(character.id, at: 1)
                let stored = try existing.step() ? existing.int(0) : nil
                if stored == hash { counts.unchanged += 1; continue }
                try write.execute([.integer(character.id), .text(character.name), text(character.fullName), text(character.birthday),
                               text(character.status), text(character.portrayedBy), .text(character.occupations),
                               .text(character.aliases), .text(character.productions), .text(character.images),
                               .text(character.appearance), .integer(now), .integer(hash)])
                try forgetUnknown.execute([.text(character.name)])
                if stored == nil { counts.inserted += 1 } else { counts.updated += 1 }
            }
            return counts
        }
    }

    /// Names the upstream does not know: not asked again until `recheckAfter` has passed.
    public func markUnknownCharacters(_ names: [String], now: Int) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("INSERT OR REPLACE INTO unknown_characters (name, checked_at) VALUES (?1, ?2)")
            for name in names { try statement.execute([.text(name), .integer(now)]) }
        }
    }

    public struct DeathRecord: Sendable {
        public var id: Int, character: String, cause: String?, details: String?, responsible = "[]", connected = "[]"
        public var lastWords: String?, episode: Int?, production: String?, image: String?

        public init(id: Int, character: String, cause: String?, details: String?, lastWords: String?,
                    episode: Int?, production: String?, image: String?) {
            self.id = id
            self.character = character
            self.cause = cause
            self.details = details
            self.lastWords = lastWords
            self.episode = episode
            self.production = production
            self.image = image
        }

        var hash: Int {
            var hasher = FNV1a()
            for field in [character, cause, details, responsible, connected, lastWords, production, image] { hasher.combine(field) }
            hasher.combine(episode)
            return hasher.signed
        }
    }

    /// Replaces the deaths with `deaths` (the upstream's full list); `keep` are ids of
    /// records that were skipped as invalid, which are never removed for that.
    /// `shrinkGuard` sees (deaths to remove, deaths stored) before anything is written and
    /// may throw to refuse the list: what it throws is passed on as it is; the store's own
    /// failures are `StoreError`s.
    public func replaceDeaths(_ deaths: [DeathRecord], keep: Set<Int>, now: Int,
                              shrinkGuard: (Int, Int) throws -> Void = { _, _ in }) throws -> ChangeCounts {
        let stored = try database.storeOperation { () throws(DatabaseError) -> [Int: Int] in
            var stored: [Int: Int] = [:]
            let existing = try database.prepare("SELECT death_id, content_hash FROM deaths")
            while try existing.step() { stored[existing.int(0)] = existing.int(1) }
            return stored
        }
        let incoming = Set(deaths.map(\.id))
        try shrinkGuard(stored.keys.filter { !incoming.contains($0) && !keep.contains($0) }.count, stored.count)
        return try database.storeOperation { () throws(DatabaseError) -> ChangeCounts in
            var counts = ChangeCounts()
            let write = try database.prepare("""
                INSERT INTO deaths (death_id, character, cause, details, responsible, connected, last_words, episode,
                                    production, image, first_seen, last_seen, content_hash)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11, ?12)
                ON CONFLICT (death_id) DO UPDATE SET
                    character = excluded.character, cause = excluded.cause, details = excluded.details,
                    responsible = excluded.responsible, connected = excluded.connected, last_words = excluded.last_words,
                    episode = excluded.episode, production = excluded.production, image = excluded.image,
                    last_seen = excluded.last_seen, content_hash = excluded.content_hash
                """)
            var seen = Set<Int>()
            for death in deaths where seen.insert(death.id).inserted {
                let hash = death.hash
                if stored[death.id] == hash { counts.unchanged += 1; continue }
                try write.execute([.integer(death.id), .text(death.character), text(death.cause), text(death.details),
                               .text(death.responsible), .text(death.connected), text(death.lastWords),
                               death.episode.map(SQLValue.integer) ?? .null, text(death.production), text(death.image),
                               .integer(now), .integer(hash)])
                if stored[death.id] == nil { counts.inserted += 1 } else { counts.updated += 1 }
            }
            let delete = try database.prepare("DELETE FROM deaths WHERE death_id = ?1")
            for id in stored.keys where !seen.contains(id) && !keep.contains(id) {
                try delete.execute([.integer(id)])
                counts.removed += 1
            }
            return counts
        }
    }

    /// Adds this run's draws of a sampled source (Breaking Bad's quotes/random) to the
    /// counts kept across runs, keyed by (production, quote id).
    public func addSamplingDraws(source: String, _ draws: [SamplingKey: Int]) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
            let add = try database.prepare("""
                INSERT INTO sampling_counts (source, production, upstream_id, draws) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (source, production, upstream_id) DO UPDATE SET draws = draws + excluded.draws
                """)
            for (key, count) in draws where count > 0 {
                try add.execute([.text(source), .text(key.production), .text(key.upstreamID), .integer(count)])
            }
        }
    }

    /// A full Upbit snapshot: new and changed pairs are written, pairs missing from it
    /// get `delisted_at` (counted as removed), and returning pairs have it cleared.
    public func applyMarketSnapshot(_ markets: [Market], keep: Set<String>, now: Int) throws(StoreError) -> ChangeCounts {
        try database.storeOperation { () throws(DatabaseError) in
            var counts = ChangeCounts()
            var stored: [String: (hash: Int, delisted: Bool)] = [:]
            let existing = try database.prepare("SELECT market, content_hash, delisted_at IS NOT NULL FROM markets")
            while try existing.step() { stored[existing.string(0)] = (existing.int(1), existing.int(2) != 0) }
            let write = try database.prepare("""
                INSERT INTO markets (market, quote_currency, base_currency, korean_name, english_name, warning, caution,
                                     first_seen, last_seen, delisted_at, content_hash)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, NULL, ?9)
                ON CONFLICT (market) DO UPDATE SET
                    quote_currency = excluded.quote_currency, base_currency = excluded.base_currency,
                    korean_name = excluded.korean_name, english_name = excluded.english_name, warning = excluded.warning,
                    caution = excluded.caution, last_seen = excluded.last_seen, delisted_at = NULL,
                    content_hash = excluded.content_hash
                """)
            var seen = Set<String>()
            for market in markets where seen.insert(market.market).inserted {
                var hasher = FNV1a()
                for field in [market.quoteCurrency, market.baseCurrency, market.koreanName, market.englishName, market.caution] {
                    hasher.combine(field)
                }
                hasher.combine(market.warning ? 1 : 0)
                let hash = hasher.signed
                if let old = stored[market.market], old.hash == hash, !old.delisted { counts.unchanged += 1; continue }
                try write.execute([.text(market.market), .text(market.quoteCurrency), .text(market.baseCurrency),
                               text(market.koreanName), text(market.englishName), .integer(market.warning ? 1 : 0),
                               .text(market.caution), .integer(now), .integer(hash)])
                if stored[market.market] == nil { counts.inserted += 1 } else { counts.updated += 1 }
            }
            let delist = try database.prepare("UPDATE markets SET delisted_at = ?2 WHERE market = ?1 AND delisted_at IS NULL")
            for (market, old) in stored where !old.delisted && !seen.contains(market) && !keep.contains(market) {
                try delist.execute([.text(market), .integer(now)])
                counts.removed += 1
            }
            return counts
        }
    }

    /// One observation; the same (place, dt) twice is one row.
    public func insertWeather(_ observation: WeatherObservation, extra: WeatherExtra, now: Int) throws(StoreError) -> ChangeCounts {
        try database.storeOperation { () throws(DatabaseError) in
            try database.execute("""
                INSERT INTO weather_observations (lat, lon, observed_at, place, country, condition, description, temp, feels_like,
                    temp_min, temp_max, pressure, humidity, wind_speed, wind_deg, clouds, units, sunrise, sunset, fetched_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)
                ON CONFLICT (lat, lon, observed_at) DO NOTHING
                """, [.real(observation.lat), .real(observation.lon), .integer(observation.observedAt), text(observation.place),
                      text(observation.country), text(observation.condition), text(observation.description),
                      real(observation.temp), real(observation.feelsLike), real(extra.tempMin), real(extra.tempMax),
                      integer(extra.pressure), integer(observation.humidity), real(observation.windSpeed),
                      integer(extra.windDegrees), integer(extra.clouds), .text(observation.units), integer(extra.sunrise),
                      integer(extra.sunset), .integer(now)])
            return database.changes > 0 ? ChangeCounts(inserted: 1) : ChangeCounts(unchanged: 1)
        }
    }

    private func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
    private func real(_ value: Double?) -> SQLValue { value.map(SQLValue.real) ?? .null }
    private func integer(_ value: Int?) -> SQLValue { value.map(SQLValue.integer) ?? .null }
}

/// The weather fields that are stored but not listed by `quotectl weather`.
public struct WeatherExtra: Sendable {
    public var tempMin: Double?, tempMax: Double?, pressure: Int?, windDegrees: Int?, clouds: Int?, sunrise: Int?, sunset: Int?

    public init(tempMin: Double? = nil, tempMax: Double? = nil, pressure: Int? = nil, windDegrees: Int? = nil,
                clouds: Int? = nil, sunrise: Int? = nil, sunset: Int? = nil) {
        self.tempMin = tempMin
        self.tempMax = tempMax
        self.pressure = pressure
        self.windDegrees = windDegrees
        self.clouds = clouds
        self.sunrise = sunrise
        self.sunset = sunset
    }
}
