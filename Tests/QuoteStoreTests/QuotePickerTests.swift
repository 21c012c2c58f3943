import Foundation
import QuoteBase
import Testing
@testable import QuoteStore
@testable import QuoteModels
@testable import QuoteText
import TestSupport

@Suite struct QuotePickerTests {
    let folder = TemporaryFolder()

    /// 60 quotes over two custom lists and Breaking Bad, varied in every filtered field.
    static let quotes: [Quote] = (0..<60).map { index in
        let breakingBad = index % 3 == 0
        return Quote(
            source: breakingBad ? "breakingbad" : (index % 3 == 1 ? "custom.a" : "custom.b"),
            upstreamID: String(index),
            text: (index % 2 == 0 ? "행복은 나눌수록 커진다 " : "Knowledge is power number ") + String(repeating: "x", count: index),
            author: breakingBad ? (index % 2 == 0 ? "Walter White" : "Jesse Pinkman") : "Author \(index % 4)",
            category: index % 5 == 0 ? "wisdom" : "life",
            production: breakingBad ? (index % 4 == 0 ? "Breaking Bad" : "Better Call Saul") : nil,
            episode: breakingBad ? 100 + index : nil,
            lang: index % 2 == 0 ? "ko" : "en")
    }

    func store() throws -> Store {
        try makeStore(in: folder, quotes: Self.quotes)
    }

    /// Picks `draws` times and checks the counts over the matching quotes are uniform.
    func expectUniform(_ filter: QuoteFilter, in store: Store, draws: Int = 3_000, seed: UInt64) throws {
        let picker = QuotePicker(database: store.database)
        try Self.expectUniform(filter, in: store, draws: draws, seed: seed) { generator in try picker.random(filter, using: &generator) }
    }

    /// The same for any way of picking: `pick` draws one quote with the generator given.
    static func expectUniform(_ filter: QuoteFilter, in store: Store, draws: Int = 3_000, seed: UInt64,
                       pick: (inout SeededGenerator) throws -> Quote?) throws {
        try store.database.defineCaseFolding()
        let clause = filter.whereClause()
        let matching = try store.database.scalarInt("SELECT count(*) FROM quotes WHERE \(clause.sql)", clause.values) ?? 0
        #expect(matching >= 4, "the filter should match several quotes")
        var generator = SeededGenerator(state: seed)
        var counts: [String: Int] = [:]
        for _ in 0..<draws {
            let quote = try #require(try pick(&generator))
            counts["\(quote.source)/\(quote.upstreamID)", default: 0] += 1
        }
        #expect(counts.count == matching, "every matching quote is reachable, and nothing else is")
        let statistic = chiSquare(Array(counts.values))
        let critical = chiSquareCritical(degreesOfFreedom: matching - 1)
        #expect(statistic < critical, "chi-square \(statistic) over \(matching) quotes, critical \(critical)")
    }

    @Test func unfilteredPicksAreUniform() throws {
        let store = try store()
        // The store also holds the starter set; picks are uniform over all of it.
        try expectUniform(QuoteFilter(), in: store, draws: 40_000, seed: 1)
    }

    @Test(arguments: [
        QuoteFilter(source: "breakingbad"),
        QuoteFilter(source: "custom"),
        QuoteFilter(source: "custom.a"),
        QuoteFilter(author: "author 1"),
        QuoteFilter(category: "WISDOM"),
        QuoteFilter(source: "custom", lang: "ko"),
        QuoteFilter(character: "walter white"),
        QuoteFilter(character: "walter"),
        QuoteFilter(character: "PINK"),
        QuoteFilter(production: "better call saul"),
        QuoteFilter(maxLength: 40),
        QuoteFilter(minLength: 60),
        QuoteFilter(lang: "en", maxLength: 50, minLength: 30),
    ])
    func filteredPicksAreUniformOverTheMatches(filter: QuoteFilter) throws {
        try expectUniform(filter, in: try store(), seed: 7)
    }

    /// The ways `FilteredPick` can end, each forced: by the first probes, by the first count, by a
    /// count after counts that ran out of steps or pages (no probes at all), and by whichever of
    /// probes and counts, both growing, ends first; a budget of none still ends. Each is uniform over the matches, for a filter
    /// matching a large share and one matching a small share.
    @Test(arguments: [
        (probes: 100_000, countSteps: 1, countPages: 16),
        (probes: 0, countSteps: 100_000_000, countPages: Int.max),
        (probes: 0, countSteps: 1, countPages: 16),
        (probes: 1, countSteps: 1, countPages: 16),
        (probes: 0, countSteps: 100_000_000, countPages: 0),
        (probes: 1, countSteps: 100_000_000, countPages: 1),
        (probes: 0, countSteps: 0, countPages: 0),
    ], [QuoteFilter(category: "life"), QuoteFilter(source: "custom.a", maxLength: 40), QuoteFilter(maxLength: 40)])
    func eachWayOfAFilteredPickIsUniform(way: (probes: Int, countSteps: Int, countPages: Int), filter: QuoteFilter) throws {
        let store = try store()
        // A reader whose cache is emptied before each pick, as a new process's is: a count bound
        // by pages then stops where it would.
        let reader = try Store(path: store.path, access: .read)
        let round = FilteredPick.Round(probes: way.probes, steps: way.countSteps, pages: way.countPages)
        let pick = FilteredPick(database: reader.database, opening: round, rounds: round)
        try Self.expectUniform(filter, in: store, seed: 11) { generator in
            try reader.database.execute("PRAGMA shrink_memory")
            return try pick.quote(filter, using: &generator)
        }
    }

    /// Probes land in the smallest space that holds every match: the source's own numbering, the
    /// ids an exact condition spans, else the whole store.
    @Test func probesLandInTheSmallestSpaceThatHoldsEveryMatch() throws {
        let store = try store()
        let pick = FilteredPick(database: store.database)
        let total = try #require(try store.database.scalarInt("SELECT count(*) FROM quotes"))
        #expect(try pick.space(for: QuoteFilter(source: "custom.a", category: "life")) == .source("custom.a", quotes: 20))
        #expect(try pick.space(for: QuoteFilter(character: "walter")) == .source("breakingbad", quotes: 20))
        #expect(try pick.space(for: QuoteFilter(source: "custom")) == .store(quotes: total))
        // A range of lengths: the quotes of those lengths, counted.
        let short = try #require(try store.database.scalarInt("SELECT count(*) FROM quotes WHERE length <= 40"))
        #expect(try pick.space(for: QuoteFilter(maxLength: 40))?.size == short)
        #expect(try pick.space(for: QuoteFilter(source: "custom", maxLength: 40))?.size == short)
        #expect(try pick.space(for: QuoteFilter(source: "custom.a", maxLength: 40)) == .source("custom.a", quotes: 20))
        // With one source too, whichever is smaller: the source's 20 quotes or the lengths'.
        var fewer = 0
        for (lowest, highest) in [(1, 13), (60, 90), (80, 85), (84, 85), (0, 10_000)] {
            let quotes = try #require(try store.database.scalarInt("SELECT count(*) FROM quotes WHERE length BETWEEN ?1 AND ?2",
                                                                   [.integer(lowest), .integer(highest)]))
            let space = try pick.space(for: QuoteFilter(source: "custom.a", maxLength: highest, minLength: lowest))
            if quotes < 20, case .lengths = space { fewer += 1 }
            #expect(space?.size == min(quotes, 20), "\(lowest)...\(highest)")
        }
        #expect(fewer > 0, "a range of fewer quotes than the source holds was tried")
        #expect(try pick.space(for: QuoteFilter(maxLength: 0)) == nil)
        #expect(try pick.space(for: QuoteFilter(minLength: Int.max)) == nil)
        #expect(try pick.space(for: QuoteFilter(maxLength: Int.max, minLength: Int.min)) != nil)
        let ids = try store.database.prepare("SELECT min(id), max(id) FROM quotes WHERE production = 'Better Call Saul'")
        #expect(try ids.step())
        #expect(try pick.space(for: QuoteFilter(production: "better call saul", maxLength: 90)) == .ids(ids.int(0)...ids.int(1)))
        #expect(try pick.space(for: QuoteFilter(source: "happiness")) == nil)
        #expect(try pick.space(for: QuoteFilter(category: "no such category")) == nil)
    }

    /// Each source's own numbering stays 1...count through inserts, deletions and a source's removal.
    @Test func eachSourcesNumberingStaysDense() throws {
        let store = try store()
        let database = store.database
        func expectDense() throws {
            let statement = try database.prepare("""
                SELECT source, count(*), max(source_pick), count(DISTINCT source_pick), min(source_pick) FROM quotes GROUP BY source
                """)
            while try statement.step() {
                let source = statement.string(0), count = statement.int(1)
                #expect(statement.int(2) == count && statement.int(3) == count && statement.int(4) == 1, "\(source)")
            }
        }
        try expectDense()
        try database.execute("DELETE FROM quotes WHERE source = 'custom.a' AND CAST(upstream_id AS INTEGER) % 2 = 1")
        try database.execute("DELETE FROM quotes WHERE source = 'builtin' AND id % 3 = 0")
        // A writer that leaves the numbers out (the sqlite3 shell) still gets them.
        try database.execute("""
            INSERT INTO quotes (source, upstream_id, text, first_seen, last_seen, content_hash, length)
            VALUES ('custom.b', 'by hand', 'typed in', 1, 1, 0, 8)
            """)
        try expectDense()
        try database.execute("DELETE FROM quotes WHERE source = 'custom.b'")
        try expectDense()
        try expectUniform(QuoteFilter(source: "custom.a"), in: store, seed: 4)
    }

    /// What a length's numbering and count must be: each length's quotes numbered 1...count,
    /// the count `quote_lengths` keeps.
    func expectLengthsTrue(_ database: Database, _ comment: Comment) throws {
        let statement = try database.prepare("""
            SELECT length, count(*), max(length_pick), count(DISTINCT length_pick), min(length_pick),
                   (SELECT quotes FROM quote_lengths WHERE quote_lengths.length = quotes.length)
              FROM quotes GROUP BY length
            """)
        var lengths = 0
        while try statement.step() {
            let length = statement.int(0), count = statement.int(1)
            #expect(statement.int(2) == count && statement.int(3) == count && statement.int(4) == 1
                    && statement.optionalInt(5) == count, "length \(length): \(comment)")
            lengths += 1
        }
        #expect(lengths > 3)
        #expect(try database.scalarInt("SELECT count(*) FROM quote_lengths WHERE quotes > 0") == lengths, comment)
        #expect(try database.scalarInt("SELECT count(*) FROM quotes WHERE length_pick IS NULL") == 0, comment)
    }

    /// Each length's numbering and count stay true through a bulk load, a resync that changes
    /// texts' lengths, adds quotes and removes some, and writes by hand; picks stay uniform.
    @Test func eachLengthsNumberingAndCountStayTrue() throws {
        let store = try store()
        let database = store.database
        try expectLengthsTrue(database, "a bulk load")
        let listed = Self.quotes.filter { $0.source == "custom.a" }
        var resynced: [Quote] = []
        for (index, quote) in listed.enumerated() where index % 4 != 0 {
            var quote = quote
            if index % 2 == 0 { quote.text += String(repeating: "y", count: index) }
            resynced.append(quote)
        }
        for index in 0..<12 {
            resynced.append(Quote(source: "custom.a", upstreamID: "new \(index)", text: "new " + String(repeating: "z", count: index * 3)))
        }
        try database.transaction { () throws(StoreError) in
            _ = try QuoteWriter(database: database).apply(resynced, to: "custom.a", removeMissing: true, now: 2_000)
        }
        try expectLengthsTrue(database, "a resync")
        try database.execute("""
            INSERT INTO quotes (source, upstream_id, text, first_seen, last_seen, content_hash, length)
            VALUES ('custom.b', 'by hand', 'typed in', 1, 1, 0, 8)
            """)
        try database.execute("UPDATE quotes SET text = text || 'more', length = length + 4 WHERE source = 'custom.b' AND id % 2 = 0")
        try database.execute("DELETE FROM quotes WHERE source = 'breakingbad' AND id % 3 = 0")
        try expectLengthsTrue(database, "writes by hand")
        try database.execute("DELETE FROM quotes WHERE source = 'custom.b'")
        try expectLengthsTrue(database, "a source removed")
        try expectUniform(QuoteFilter(maxLength: 45), in: store, seed: 9)
    }

    /// A damaged store's numbers never trap: length counts that cannot be true leave the range
    /// out of the spaces (the draw still finds a match), and a numbering at Int's end fails a
    /// merge with an error, its rows as they were.
    @Test func damagedNumbersAreRefusedNotTrappedOn() throws {
        let store = try store()
        let database = store.database
        try database.execute("PRAGMA ignore_check_constraints = ON")
        var generator = SeededGenerator(state: 1)
        for damage in ["-5", "9223372036854775807"] {
            try database.execute("UPDATE quote_lengths SET quotes = \(damage) WHERE length = (SELECT min(length) FROM quote_lengths)")
            let pick = FilteredPick(database: database)
            let space = try #require(try pick.space(for: QuoteFilter(maxLength: 40)))
            if case .lengths = space { Issue.record("counts of \(damage) were used") }
            #expect(try #require(try pick.quote(QuoteFilter(maxLength: 40), using: &generator)).length <= 40)
        }
        try database.execute("UPDATE quotes SET source_pick = 9223372036854775807 WHERE source = 'custom.a' AND source_pick = 20")
        let before = try database.scalarInt("SELECT count(*) FROM quotes")
        #expect(throws: StoreError.self) {
            try database.transaction { () throws(StoreError) in
                _ = try QuoteWriter(database: database).apply([Quote(source: "custom.a", upstreamID: "one more", text: "one more")],
                                                              to: "custom.a", removeMissing: false, now: 2_000)
            }
        }
        #expect(try database.scalarInt("SELECT count(*) FROM quotes") == before)
    }

    @Test func aFilteredPickWithNoMatchIsNilOnEveryWay() throws {
        let store = try store()
        var generator = SeededGenerator(state: 2)
        for steps in [1, 1_000_000] {
            let round = FilteredPick.Round(probes: 50, steps: steps, pages: Int.max)
            let pick = FilteredPick(database: store.database, opening: round, rounds: round)
            #expect(try pick.quote(QuoteFilter(source: "custom.a", lang: "xx"), using: &generator) == nil)
            #expect(try pick.quote(QuoteFilter(category: "life", lang: "xx"), using: &generator) == nil)
            #expect(try pick.quote(QuoteFilter(lang: "xx", maxLength: 40), using: &generator) == nil)
        }
        #expect(!store.database.isInTransaction, "the count's snapshot is closed")
    }

    /// Shares ask only which named sources have a match ("custom": any list), not how many.
    @Test func sourcesMatchingNamesTheSourcesWithAMatch() throws {
        let picker = QuotePicker(database: try store().database)
        #expect(try picker.sourcesMatching(QuoteFilter(lang: "ko"), among: ["custom", "custom.a", "happiness", "breakingbad"])
            == ["custom", "custom.a", "breakingbad"])
        #expect(try picker.sourcesMatching(QuoteFilter(production: "better call saul"), among: nil) == ["breakingbad"])
        #expect(try picker.sourcesMatching(QuoteFilter(), among: nil).isSuperset(of: ["builtin", "custom.a", "custom.b", "breakingbad"]))
    }

    @Test func picksStayUniformAfterDeletionsBecauseNumberingStaysDense() throws {
        let store = try store()
        try store.database.execute("DELETE FROM quotes WHERE source = 'custom.a' AND CAST(upstream_id AS INTEGER) % 2 = 1")
        try store.database.execute("DELETE FROM quotes WHERE source = 'builtin' AND id % 3 = 0")
        let count = try store.database.scalarInt("SELECT count(*) FROM quotes")
        #expect(try store.database.scalarInt("SELECT max(pick) FROM quotes") == count)
        #expect(try store.database.scalarInt("SELECT count(DISTINCT pick) FROM quotes") == count)
        try expectUniform(QuoteFilter(), in: store, draws: 30_000, seed: 3)
    }

    @Test func anAuthorIsFoundByWordsWhenNoExactNameMatches() throws {
        let store = try store()
        var generator = SeededGenerator(state: 5)
        let picker = QuotePicker(database: store.database)
        let quote = try picker.random(QuoteFilter(author: "twain"), using: &generator)
        #expect(quote?.author == "Mark Twain")
        #expect(try picker.random(QuoteFilter(author: "nobody at all"), using: &generator) == nil)
    }

    @Test func noMatchIsNil() throws {
        var generator = SeededGenerator(state: 5)
        let picker = QuotePicker(database: try store().database)
        #expect(try picker.random(QuoteFilter(source: "happiness"), using: &generator) == nil)
        #expect(try picker.random(QuoteFilter(lang: "ko", maxLength: 3), using: &generator) == nil)
    }

    /// Every filter is answered through an index: the cost follows the matches, not the store.
    @Test(arguments: [
        QuoteFilter(source: "custom"), QuoteFilter(author: "x"), QuoteFilter(category: "x"), QuoteFilter(lang: "ko"),
        QuoteFilter(character: "x"), QuoteFilter(production: "x"), QuoteFilter(maxLength: 10),
    ])
    func filteredCountsUseAnIndex(filter: QuoteFilter) throws {
        let store = try store()
        try store.database.defineCaseFolding()
        let clause = filter.whereClause()
        let plan = try store.database.prepare("EXPLAIN QUERY PLAN SELECT count(*) FROM quotes WHERE \(clause.sql)")
        try plan.bind(clause.values)
        var details: [String] = []
        while try plan.step() { details.append(plan.string(3)) }
        #expect(details.contains { $0.contains("USING") && $0.contains("INDEX") }, "\(details)")
        // The production index leaves NULLs out (0009): still the one used.
        if filter.production != nil { #expect(details.contains { $0.contains("quotes_by_production") }, "\(details)") }
    }

    @Test func quotesWithoutAProductionAreLeftOutOfItsIndex() throws {
        let database = try store().database
        let partial = try database.scalarInt("SELECT partial FROM pragma_index_list('quotes') WHERE name = 'quotes_by_production'")
        #expect(partial == 1)
        let withProduction = try database.scalarInt("SELECT count(*) FROM quotes WHERE production IS NOT NULL") ?? 0
        let all = try database.scalarInt("SELECT count(*) FROM quotes") ?? 0
        #expect(withProduction > 0 && withProduction < all, "the fixture needs quotes with and without a production")
        // The productions listed for completion come from the index, as they did from the whole one.
        let listed = try Vocabulary(database: database).productions()
        #expect(!listed.isEmpty && listed.count <= withProduction)
    }

    @Test func unfilteredPickIsOneIndexProbe() throws {
        let store = try store()
        for sql in ["SELECT max(pick) FROM quotes", "SELECT id FROM quotes WHERE pick = 5"] {
            let plan = try store.database.prepare("EXPLAIN QUERY PLAN " + sql)
            #expect(try plan.step())
            let detail = plan.string(3)
            #expect(detail.contains("quotes_by_pick"), "\(sql): \(detail)")
        }
    }

    @Test func todayIsStableAllDayAndChangesAcrossDays() throws {
        let store = try store()
        let picker = QuotePicker(database: store.database)
        setenv("TZ", "UTC", 1)
        let noon = 20_000 * 86_400 + 43_200
        let morning = try picker.today(now: noon - 40_000)
        #expect(try picker.today(now: noon) == morning)
        var distinct = Set<String>()
        for day in 0..<20 {
            distinct.insert(try #require(try picker.today(now: noon + day * 86_400)).upstreamID)
        }
        #expect(distinct.count >= 10)
        let filtered = try picker.today(now: noon, filter: QuoteFilter(source: "breakingbad"))
        #expect(filtered?.source == "breakingbad")
    }

    @Test func todayPrefersTheSourcesOwnQuoteOfTheDay() throws {
        let store = try store()
        try store.database.transaction { () throws(StoreError) in
            let writer = QuoteWriter(database: store.database)
            try writer.ensureSource("happiness", now: 1)
            try writer.apply([Quote(source: "happiness", upstreamID: "60", text: "행복은 내면에서 오지 않는다"),
                              Quote(source: "happiness", upstreamID: "61", text: "다른 날의 인용")],
                             to: "happiness", removeMissing: false, now: 1)
            try writer.setDailyQuote(source: "happiness", upstreamID: "60", day: UnixTime.dateString(day: 20_000))
        }
        let picker = QuotePicker(database: store.database)
        let quote = try picker.today(now: 20_000 * 86_400 + 60, filter: QuoteFilter(source: "happiness"))
        #expect(quote?.upstreamID == "60")
        // The source's own quote skipped (a user hid it): the day's pick in content-hash order.
        let instead = try picker.today(now: 20_000 * 86_400 + 60, filter: QuoteFilter(source: "happiness")) { $0.upstreamID == "60" }
        #expect(instead?.upstreamID == "61")
    }

    /// A skipped quote of the day gives way to the next in the same order: the same one all day,
    /// every quote reached once each is skipped in turn, and none when every one is.
    @Test func todaySkipsQuotesInTheDaysOrder() throws {
        let store = try store()
        let picker = QuotePicker(database: store.database)
        let noon = 20_000 * 86_400 + 43_200
        let filter = QuoteFilter(source: "builtin")
        let total = try picker.count(filter)
        var skipped = Set<String>()
        var order: [String] = []
        while let quote = try picker.today(now: noon, filter: filter, skipping: { skipped.contains($0.upstreamID) }) {
            #expect(try picker.today(now: noon - 3_600, filter: filter, skipping: { skipped.contains($0.upstreamID) }) == quote)
            #expect(!skipped.contains(quote.upstreamID))
            order.append(quote.upstreamID)
            skipped.insert(quote.upstreamID)
            if order.count > total { break }
        }
        #expect(order.count == total && Set(order).count == total)
        #expect(order.first == (try picker.today(now: noon, filter: filter))?.upstreamID)
    }

    @Test func searchFindsEnglishAndKoreanWordsBestFirst() throws {
        let store = try store()
        let picker = QuotePicker(database: store.database)
        let korean = try picker.search("행복", limit: 100)
        #expect(!korean.isEmpty)
        #expect(korean.allSatisfy { $0.text.contains("행복") })
        let english = try picker.search("knowledge power", limit: 5)
        #expect(english.count == 5)
        #expect(english.allSatisfy { $0.text.lowercased().contains("knowledge") })
        let byAuthor = try picker.search("pinkman", limit: 100)
        #expect(byAuthor.count == 10)
        #expect(try picker.search("twai", limit: 3).first?.author == "Mark Twain")  // prefix
    }

    @Test func searchTreatsFTSSyntaxAsPlainText() throws {
        let picker = QuotePicker(database: try store().database)
        for text in ["\"", "AND OR NOT", "(unbalanced", "text:*", "a\"b", "NEAR(a b)", "*"] {
            _ = try picker.search(text, limit: 3)
        }
    }
}

/// `--character` finds a speaker as `quotectl characters NAME` does: by any part of the name.
@Suite struct CharacterFilterTests {
    let folder = TemporaryFolder()

    @Test func aPartOfTheNameInAnyCaseFindsTheCharacter() throws {
        let store = try makeStore(in: folder, quotes: QuotePickerTests.quotes)
        let picker = QuotePicker(database: store.database)
        #expect(try picker.count(QuoteFilter(character: "walter")) == 10)
        #expect(try picker.count(QuoteFilter(character: "WHITE")) == 10)
        #expect(try picker.count(QuoteFilter(character: "Walter White")) == 10)
        #expect(try picker.count(QuoteFilter(character: "nobody")) == 0)
        #expect(try picker.count(QuoteFilter(character: "Author")) == 0, "custom lists' authors are not characters")
    }
}

/// The words shell completions offer, from the store.
@Suite struct VocabularyTests {
    let folder = TemporaryFolder()

    @Test func namesAndValuesMostUsedFirst() throws {
        let store = try makeStore(in: folder, quotes: QuotePickerTests.quotes)
        let vocabulary = Vocabulary(database: store.database)
        #expect(try vocabulary.listNames() == ["a", "b"])
        #expect(try vocabulary.characters() == ["Jesse Pinkman", "Walter White"])  // 10 each: by name
        #expect(try vocabulary.productions() == ["Better Call Saul", "Breaking Bad"])
        #expect(try vocabulary.categories().first == "life")  // 48 quotes, then wisdom's 12 and the built-ins
    }
}
