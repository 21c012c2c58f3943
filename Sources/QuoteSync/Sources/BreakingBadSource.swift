import Foundation
import QuoteConfig
import QuoteStore

/// The Breaking Bad API. There is no list of all quotes, so quotes are sampled
/// from `quotes/random` per production until K already-known quotes in a row or
/// the request budget is spent; the deaths are fetched whole (and replace the
/// stored list); characters named by a quote or a death that the store lacks are
/// looked up by name. Any failed request fails the whole run: nothing is written.
enum BreakingBadSource {
    /// How long a name the upstream did not know is left alone before asking again.
    static let unknownRecheck = 7 * 86_400

    static func sync(_ context: SyncContext) async throws(SourceFailure) -> SourceUpdate {
        let settings = context.settings
        let base = settings.url.hasSuffix("/") ? String(settings.url.dropLast()) : settings.url
        var skipped = 0

        // 1. Quotes, sampled.
        var known = try storedStrings("SELECT upstream_id FROM quotes WHERE source = 'breakingbad'", context)
        var newQuotes: [Quote] = []
        for production in settings.productions {
            var streak = 0
            while streak < settings.knownStreak, context.requests < settings.requestBudget {
                if context.requests > 0 { await context.pause() }
                let url = base + "/quotes/random?production=" + encode(production)
                let response = try await context.send(HTTPRequest(url: url, timeout: settings.timeout,
                                                                  maxBytes: settings.maxBytes, allowHTTP: settings.allowHTTP))
                guard response.status == 200 else { throw context.statusFailure(response) }
                let document = try context.json(response, what: "quotes/random")
                guard let quote = quote(from: document) else {
                    skipped += 1
                    streak += 1  // an unusable record is no progress either
                    continue
                }
                if known.insert(quote.upstreamID).inserted {
                    newQuotes.append(quote)
                    streak = 0
                } else {
                    streak += 1
                }
            }
        }

        // 2. Deaths, whole.
        var deaths: [RecordWriter.DeathRecord]?
        var deathValidators: [Validators] = []
        var keepDeaths = Set<Int>()
        switch try await context.fetch(base + "/deaths") {
        case .unchanged(let validators, _):
            deathValidators = [validators]
        case .body(let response, let validators):
            deathValidators = [validators]
            guard let records = try context.json(response, what: "deaths").array else {
                throw SourceFailure("deaths: expected a JSON array", httpStatus: response.status)
            }
            var decoded: [RecordWriter.DeathRecord] = []
            for record in records {
                if let death = death(from: record) {
                    decoded.append(death)
                } else {
                    skipped += 1
                    if let id = record["death_id"]?.int { keepDeaths.insert(id) }
                }
            }
            deaths = decoded
        }

        // 3. Characters the store lacks, by name.
        var names = Set(newQuotes.compactMap(\.author))
        names.formUnion(try storedStrings("SELECT DISTINCT author FROM quotes WHERE source = 'breakingbad' AND author IS NOT NULL", context))
        names.formUnion((deaths ?? []).map(\.character))
        names.formUnion(try storedStrings("SELECT DISTINCT character FROM deaths", context))
        let have = try storedStrings("SELECT lower(name) FROM characters", context)
        let recentlyUnknown = try storedStrings(
            "SELECT lower(name) FROM unknown_characters WHERE checked_at > \(context.now - unknownRecheck)", context)
        var characters: [RecordWriter.CharacterRecord] = []
        var unknown: [String] = []
        for name in names.sorted() where !have.contains(name.lowercased()) && !recentlyUnknown.contains(name.lowercased()) {
            guard context.requests < settings.requestBudget else { break }
            await context.pause()
            let response = try await context.send(HTTPRequest(url: base + "/characters?name=" + encode(name),
                                                              timeout: settings.timeout, maxBytes: settings.maxBytes,
                                                              allowHTTP: settings.allowHTTP))
            guard response.status == 200 else { throw context.statusFailure(response) }
            guard let records = try context.json(response, what: "characters").array else {
                throw SourceFailure("characters: expected a JSON array", httpStatus: response.status)
            }
            // An empty array means the API does not know the name: not an error.
            let decoded = records.compactMap(character(from:))
            skipped += records.count - decoded.count
            if let match = decoded.first(where: { $0.name.lowercased() == name.lowercased() }) ?? decoded.first {
                characters.append(match)
            } else if records.isEmpty {
                unknown.append(name)
            }
        }

        let requests = context.requests
        var update = SourceUpdate { counts in
            "\(newQuotes.count) new quotes in \(requests) requests, \(deaths?.count ?? 0) deaths, "
                + "\(characters.count) characters looked up, " + changeSummary(counts)
        }
        update.validators = deathValidators
        update.httpStatus = 200
        update.skipped = skipped
        update.apply = { database, now in
            try QuoteWriter(database: database).ensureSource(SourceName.breakingbad, url: settings.url, now: now)
            var counts = try QuoteWriter(database: database).apply(newQuotes, to: SourceName.breakingbad, removeMissing: false, now: now)
            let records = RecordWriter(database: database)
            if let deaths {
                counts += try records.replaceDeaths(deaths, keep: keepDeaths, now: now) { toRemove, stored in
                    try ShrinkGuard.check(what: "deaths", removing: toRemove, of: stored, incoming: deaths.count,
                                          allowed: settings.allowShrink, minimumStored: 1, httpStatus: 200)
                }
            }
            counts += try records.upsertCharacters(characters, now: now)
            try records.markUnknownCharacters(unknown, now: now)
            return counts
        }
        return update
    }

    static func quote(from value: JSONValue) -> Quote? {
        guard let object = value.object, let id = object["quote_id"]?.int,
              let text = try? RecordText.required(object["quote"], field: "quote"),
              let character = RecordText.validOptional(object["character"], field: "character"),
              let production = RecordText.validOptional(object["production"], field: "production") else { return nil }
        return Quote(source: SourceName.breakingbad, upstreamID: String(id), text: text, author: character,
                     production: production, episode: object["episode"]?.int, lang: "en")
    }

    static func death(from value: JSONValue) -> RecordWriter.DeathRecord? {
        guard let object = value.object, let id = object["death_id"]?.int,
              let character = try? RecordText.required(object["character"], field: "character") else { return nil }
        let optional = { (key: String) -> String? in (try? RecordText.optional(object[key], field: key)) ?? nil }
        var death = RecordWriter.DeathRecord(id: id, character: character, cause: optional("cause"), details: optional("details"),
                                             lastWords: optional("last_words"), episode: object["episode"]?.int,
                                             production: optional("production"), image: optional("image"))
        death.responsible = stringList(object["responsible"])
        death.connected = stringList(object["connected"])
        return death
    }

    static func character(from value: JSONValue) -> RecordWriter.CharacterRecord? {
        guard let object = value.object, let id = object["character_id"]?.int,
              let name = try? RecordText.required(object["name"], field: "name") else { return nil }
        let optional = { (key: String) -> String? in (try? RecordText.optional(object[key], field: key)) ?? nil }
        var character = RecordWriter.CharacterRecord(id: id, name: name, fullName: optional("full_name"),
                                                     birthday: optional("birthday"), status: optional("status"),
                                                     portrayedBy: optional("portrayed_by"))
        character.occupations = stringList(object["occupations"])
        character.aliases = stringList(object["aliases"])
        character.productions = stringList(object["productions"])
        character.images = stringList(object["images"])
        if let appearance = object["appearance"], appearance.object != nil {
            character.appearance = JSONWriter.serialize(appearance)
        }
        return character
    }

    /// A JSON array of the strings in `value` (anything else in it is dropped).
    static func stringList(_ value: JSONValue?) -> String {
        JSONWriter.serialize(.array((value?.array ?? []).compactMap { $0.string.map(JSONValue.string) }))
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    static func storedStrings(_ sql: String, _ context: SyncContext) throws(SourceFailure) -> Set<String> {
        do {
            let statement = try context.database.prepare(sql)
            var values = Set<String>()
            while try statement.step() { values.insert(statement.string(0)) }
            return values
        } catch {
            throw SourceFailure.local(StoreError(error, path: context.database.path))
        }
    }
}
