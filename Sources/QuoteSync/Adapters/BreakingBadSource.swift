import QuoteBase
import QuoteConfig
import QuoteModels
import QuoteStore
import QuoteText

/// The Breaking Bad API. There is no list of all quotes, only `quotes/random`, so quotes
/// are sampled, round-robin over the productions; how often each quote was drawn is kept
/// across runs, and a production stops being sampled once the Chao1 estimate of its pool
/// says less than `unseenThreshold` of it is unseen (after a few probe draws per run, so
/// quotes added upstream are still found), or after `known_streak` known quotes in a row.
/// The deaths are fetched whole (and replace the stored list, under the shrink guard).
/// Characters named by a quote or a death that the store lacks are looked up by name the
/// moment they are first named, and sampling always leaves a request for that lookup, so
/// the budget never runs out with a named character unlooked-up. Any failed request fails
/// the whole run: nothing is written.
enum BreakingBadSource {
    /// How long a name the upstream did not know is left alone before asking again.
    static let unknownRecheck = 7 * 86_400
    /// Sampling a production stops when the estimated unseen share of its pool drops below this.
    static let unseenThreshold = 0.05
    /// Draws per production per run even when its pool looks complete.
    static let probeDraws = 3

    /// The run's state: what is known, what was drawn, what was looked up.
    private struct Run {
        var known: Set<String>
        var draws: [SamplingKey: Int] = [:]
        var stored: [String: [String: Int]]
        var newQuotes: [Quote] = []
        var characters: [RecordWriter.CharacterRecord] = []
        var unknown: [String] = []
        var settled: Set<String>
        var skipped = 0

        func estimate(_ production: String) -> PoolEstimate {
            var counts = stored[production] ?? [:]
            for (key, count) in draws where key.production == production { counts[key.upstreamID, default: 0] += count }
            return PoolEstimate(drawCounts: counts.values)
        }
    }

    static func sync(_ context: SyncContext) async throws(SourceFailure) -> SourceUpdate {
        let settings = context.settings
        let base = settings.url.hasSuffix("/") ? String(settings.url.dropLast()) : settings.url
        let since = context.now - unknownRecheck
        var run = Run(known: try context.askStore { (store) throws(StoreError) in try store.quoteIDs(source: SourceName.breakingbad) },
                      stored: try context.askStore { (store) throws(StoreError) in try store.samplingDraws(source: SourceName.breakingbad) },
                      settled: try context.askStore { (store) throws(StoreError) in try store.settledCharacterNames(unknownSince: since) })
        // 1. Deaths, whole (one request).
        let deaths = try await fetchDeaths(base: base, context, &run)
        // 2. Characters already named by stored quotes and deaths, or by the new deaths.
        var named = try context.askStore { (store) throws(StoreError) in
            try store.authors(source: SourceName.breakingbad).union(try store.deathCharacters())
        }
        named.formUnion((deaths.records ?? []).map(\.character))
        for name in named.sorted() where !run.settled.contains(name.lowercased()) {
            guard context.requests < settings.requestBudget else { break }
            try await lookUp(name, base: base, context, &run)
        }
        // 3. Quotes, sampled round-robin; each new author is looked up at once.
        try await sample(base: base, context, &run)
        return update(run, deaths: deaths, requests: context.requests, settings: settings)
    }

    /// The deaths the upstream lists (nil when unchanged since the last run), their validators,
    /// and the ids of unusable records (whose stored versions are kept).
    private struct Deaths {
        var records: [RecordWriter.DeathRecord]?
        var validators: [Validators] = []
        var keep = Set<Int>()
    }

    private static func fetchDeaths(base: String, _ context: SyncContext, _ run: inout Run) async throws(SourceFailure) -> Deaths {
        var deaths = Deaths()
        switch try await context.fetch(base + "/deaths") {
        case .unchanged(let validators, _):
            deaths.validators = [validators]
        case .body(let response, let validators):
            deaths.validators = [validators]
            guard let records = try context.json(response, what: "deaths").array else {
                throw SourceFailure("deaths: expected a JSON array", httpStatus: response.status)
            }
            var decoded: [RecordWriter.DeathRecord] = []
            for record in records {
                if let death = death(from: record) {
                    decoded.append(death)
                } else {
                    run.skipped += 1
                    if let id = record["death_id"]?.int { deaths.keep.insert(id) }
                }
            }
            deaths.records = decoded
        }
        return deaths
    }

    /// Draws quotes round-robin over the productions until each is settled (a streak of known
    /// quotes, or a pool estimated nearly seen) or the budget is spent, keeping two requests:
    /// one draw, and the lookup its author may need.
    private static func sample(base: String, _ context: SyncContext, _ run: inout Run) async throws(SourceFailure) {
        let settings = context.settings
        var active = settings.productions
        var streaks: [String: Int] = [:]
        var drawsThisRun: [String: Int] = [:]
        while !active.isEmpty, settings.requestBudget - context.requests >= 2 {
            for production in active {
                guard settings.requestBudget - context.requests >= 2 else { break }
                await context.pause()
                let url = base + "/quotes/random?production=" + encode(production)
                let response = try await context.send(HTTPRequest(url: url, timeout: settings.timeout,
                                                                  maxBytes: settings.maxBytes, allowHTTP: settings.allowHTTP))
                guard response.status == 200 else { throw context.statusFailure(response) }
                let document = try context.json(response, what: "quotes/random")
                drawsThisRun[production, default: 0] += 1
                context.progress("\(context.requests) of \(settings.requestBudget) requests, \(run.newQuotes.count) new quotes")
                guard let quote = quote(from: document) else {
                    run.skipped += 1
                    streaks[production, default: 0] += 1  // an unusable record is no progress either
                    continue
                }
                run.draws[SamplingKey(production: production, upstreamID: quote.upstreamID), default: 0] += 1
                if run.known.insert(quote.upstreamID).inserted {
                    run.newQuotes.append(quote)
                    streaks[production] = 0
                    if let author = quote.author, !run.settled.contains(author.lowercased()) {
                        try await lookUp(author, base: base, context, &run)
                    }
                } else {
                    streaks[production, default: 0] += 1
                }
            }
            active.removeAll { production in
                let estimate = run.estimate(production)
                let probed = drawsThisRun[production, default: 0] >= probeDraws
                return streaks[production, default: 0] >= settings.knownStreak
                    || (probed && estimate.observed > 0 && estimate.unseenShare < unseenThreshold)
            }
        }
    }

    /// The writes of a run: new quotes, the deaths (under the shrink guard), characters, names
    /// the upstream did not know, and the sampling counts.
    private static func update(_ result: Run, deaths: Deaths, requests: Int, settings: SourceSettings) -> SourceUpdate {
        var update = SourceUpdate { counts in
            Plural.count(result.newQuotes.count, "new quote") + " in " + Plural.count(requests, "request") + ", "
                + Plural.count(deaths.records?.count ?? 0, "death") + ", "
                + Plural.count(result.characters.count, "character") + " looked up, " + changeSummary(counts)
        }
        update.validators = deaths.validators
        update.httpStatus = 200
        update.skipped = result.skipped
        update.apply = { connection, now in
            try connection.quotes.ensureSource(SourceName.breakingbad, url: settings.url, now: now)
            var counts = try connection.quotes.apply(result.newQuotes, to: SourceName.breakingbad, removeMissing: false, now: now)
            let records = connection.records
            if let incoming = deaths.records {
                counts += try records.replaceDeaths(incoming, keep: deaths.keep, now: now) { toRemove, stored in
                    try ShrinkGuard.check(what: "deaths", removing: toRemove, of: stored, incoming: incoming.count,
                                          allowed: settings.allowShrink, minimumStored: 1, httpStatus: 200)
                }
            }
            counts += try records.upsertCharacters(result.characters, now: now)
            try records.markUnknownCharacters(result.unknown, now: now)
            try records.addSamplingDraws(source: SourceName.breakingbad, result.draws)
            return counts
        }
        return update
    }

    /// Looks a character up by name; an empty answer marks the name unknown for a week.
    private static func lookUp(_ name: String, base: String, _ context: SyncContext, _ run: inout Run) async throws(SourceFailure) {
        let settings = context.settings
        run.settled.insert(name.lowercased())
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
        run.skipped += records.count - decoded.count
        if let match = decoded.first(where: { $0.name.lowercased() == name.lowercased() }) ?? decoded.first {
            run.characters.append(match)
            run.settled.insert(match.name.lowercased())
        } else if records.isEmpty {
            run.unknown.append(name)
        }
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

    /// A production or a name, as a query value.
    static func encode(_ text: String) -> String { URLText.queryEncoded(text) }
}
