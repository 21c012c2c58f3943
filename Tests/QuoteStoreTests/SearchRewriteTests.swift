import Testing
@testable import QuoteStore
@testable import QuoteModels
@testable import QuoteText
import TestSupport

/// A search is run as an OR of the terms each word starts (see `SearchPlan`) and ranked by
/// `quoted_bm25`: the matches, their order and their scores must be exactly what FTS5's bm25 gives
/// the prefix query of the same words.
@Suite struct SearchRewriteTests {
    let folder = TemporaryFolder()

    func store(quotes count: Int = 3_000) throws -> Store {
        var random = SeededGenerator(state: 0xFEED)
        let words = ["quote", "quotes", "light", "ocean", "time", "timeless", "times", "journey", "kw42", "kw4242",
                     "kw424", "Author", "naïve", "lighthouse", "oceans"]
        let quotes = (1...count).map { number in
            let text = (0..<Int.random(in: 3...9, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            return Quote(source: "custom.s", upstreamID: String(number), text: "\(text) n\(number)", author: "Author \(number % 50)")
        }
        return try makeStore(in: folder, quotes: quotes)
    }

    /// Every match of the prefix query with FTS5's own bm25 score, best first, ties by rowid.
    func prefixQueryRanking(_ text: String, in store: Store) throws -> [Pair] {
        let statement = try store.database.prepare(
            "SELECT rowid, bm25(quotes_fts) AS score FROM quotes_fts WHERE quotes_fts MATCH ?1 ORDER BY score, rowid")
        try statement.bind(FullTextQuery.make(text), at: 1)
        var rows: [Pair] = []
        while try statement.step() { rows.append(Pair(row: statement.int(0), score: statement.double(1))) }
        return rows
    }

    /// Every match of the plan with quoted_bm25's score, as `find` orders them.
    func planRanking(_ text: String, in store: Store) throws -> [Pair] {
        let picker = QuotePicker(database: store.database)
        let plan = try picker.searchPlan(text)
        let rows = try FullTextRank.rowCount(of: store.database)
        var weights: [(phrases: Int, idf: Double)] = []
        for group in plan.groups {
            let count = try store.database.scalarInt("SELECT count(*) FROM quotes_fts WHERE quotes_fts MATCH ?1", [.text(group.query)]) ?? 0
            weights.append((group.phrases.count, FullTextRank.inverseDocumentFrequency(hits: count, rows: rows)))
        }
        try FullTextRank.register(on: store.database)
        let statement = try store.database.prepare("""
            SELECT rowid, quoted_bm25(quotes_fts, ?2) AS score FROM quotes_fts WHERE quotes_fts MATCH ?1 ORDER BY score, rowid
            """)
        try statement.bind(plan.query, at: 1)
        try statement.bind(FullTextRank.weights(weights), at: 2)
        var found: [Pair] = []
        while try statement.step() { found.append(Pair(row: statement.int(0), score: statement.double(1))) }
        return found
    }

    struct Pair: Equatable, CustomStringConvertible {
        let row: Int
        let score: Double
        var description: String { "\(row):\(score)" }
    }

    @Test(arguments: ["quote kw4242", "quotes", "quote", "light ocean", "time", "timeless", "kw42", "kw4242 light",
                      "Author 7", "author", "n12", "n1234", "OCEAN Light", "naïve", "jour", "zzz", "quote zzz", "ti me",
                      "time n1", "kw424 ocean time", "light lighthouse"])
    func thePlanRanksAsBM25RanksThePrefixQuery(text: String) throws {
        let store = try store()
        let expected = try prefixQueryRanking(text, in: store)
        let found = try planRanking(text, in: store)
        let query = try QuotePicker(database: store.database).searchPlan(text).query
        #expect(found == expected, "\(text) → \(query)")
    }

    @Test(arguments: ["quote kw4242", "time kw42", "light ocean n12", "n1234", "Author 7 kw4242", "kw42", "jour", "naïve", "lig", "time",
                      "kw4242 time time time", "quote quote kw42"])
    func findShowsTheBestMatchesFirst(text: String) throws {
        let store = try store()
        let found = try QuotePicker(database: store.database).find(text, limit: 10)
        let expected = try prefixQueryRanking(text, in: store)
        #expect(found.ranked)
        #expect(found.matches == expected.count)
        // Scores tie often here; the first ten are the first ten of bm25's order with ties by id.
        #expect(found.quotes.map(\.id) == expected.prefix(10).map(\.row))
    }

    @Test func aWordThatStartsAFewTermsIsTheirOR() throws {
        let store = try store()
        let plan = try QuotePicker(database: store.database).searchPlan("quote ocean kw42 kw4242 zzz")
        #expect(plan.groups.map(\.phrases) == [[#""quote""#, #""quotes""#], [#""ocean""#, #""oceans""#],
                                              [#""kw42""#, #""kw424""#, #""kw4242""#], [#""kw4242""#], [#""zzz""#]])
        #expect(plan.query == #"("quote" OR "quotes") AND ("ocean" OR "oceans") AND ("kw42" OR "kw424" OR "kw4242") AND "kw4242" AND "zzz""#)
    }

    @Test func aWordThatStartsManyTermsStaysAPrefix() throws {
        let store = try store()
        let picker = QuotePicker(database: store.database)
        // n1, n10…n19, n100…: far more than the expansion limit.
        #expect(try picker.searchPlan("n1").query == #""n1"*"#)
        #expect(try picker.searchPlan("N1 n2999").query == #""N1"* AND "n2999""#)
        // Not plain ASCII: left to the tokenizer as a prefix; a quote inside a word is part of it.
        #expect(try picker.searchPlan("naïve").query == #""naïve"*"#)
        #expect(try picker.searchPlan(#"a"b"#).query == #""a""b"*"#)
        // FTS5's own syntax is only text.
        let syntax = SearchPlan(#"OR NOT ( * NEAR(a b) -x"#) { _, _ in [] }.query
        #expect(syntax == #""OR" AND "NOT" AND "("* AND "*"* AND "NEAR(a"* AND "b)"* AND "-x"*"#)
        _ = try picker.find(#"OR NOT ( * NEAR(a b) -x ""#, limit: 10)
    }

    @Test func moreThanTheRankingLimitListsTheFirstMatchesInStoreOrder() throws {
        let store = try store(quotes: 12_000)
        let picker = QuotePicker(database: store.database)
        let found = try picker.find("time", limit: 7)
        #expect(!found.ranked)
        #expect(found.matches == QuotePicker.rankingLimit + 1)
        let statement = try store.database.prepare("SELECT rowid FROM quotes_fts WHERE quotes_fts MATCH ?1 LIMIT 7")
        try statement.bind(FullTextQuery.make("time"), at: 1)
        var expected: [Int] = []
        while try statement.step() { expected.append(statement.int(0)) }
        #expect(found.quotes.map(\.id) == expected)
    }

    @Test func aQuotedPhraseMatchesItsWordsSideBySide() throws {
        let store = try store()
        let picker = QuotePicker(database: store.database)
        let found = try picker.find(#""light ocean" kw42"#, limit: 10_000)
        #expect(!found.quotes.isEmpty)
        for quote in found.quotes {
            let words = quote.text.lowercased().split(separator: " ")
            let adjacent = zip(words, words.dropFirst()).contains { $0 == "light" && $1 == "ocean" }
            #expect(adjacent && words.contains { $0.hasPrefix("kw42") }, "\(quote.text)")
        }
        let everyRow = try store.database.scalarInt("""
            SELECT count(*) FROM quotes WHERE (' ' || lower(text) || ' ') LIKE '% light ocean %' AND text LIKE '%kw42%'
            """) ?? -1
        #expect(found.matches == everyRow)
        // One quoted word is that word exactly: "time" does not find "timeless" alone.
        #expect(try picker.searchPlan(#""time""#).query == #""time""#)
    }

    @Test(arguments: [
        (#"light ocean"#, [SearchPlan.Piece.word("light"), .word("ocean")]),
        (#""light  ocean" time"#, [.phrase("light ocean"), .word("time")]),
        (#"time "light ocean"#, [.word("time"), .phrase("light ocean")]),
        (#"   ""  x"#, [.word("x")]),
        (#"a"b "c d""#, [.word(#"a"b"#), .phrase("c d")]),
        (#""""#, []),
        ("", []),
        (" \t\n", []),
    ])
    func theTextIsReadAsWordsAndPhrases(text: String, pieces: [SearchPlan.Piece]) {
        #expect(SearchPlan.pieces(of: text) == pieces)
    }

    @Test func theIndexRowCountIsReadFromItsVarint() throws {
        #expect(FullTextRank.rowCount(averages: []) == nil)
        #expect(FullTextRank.rowCount(averages: [0x00, 0x05]) == 0)
        #expect(FullTextRank.rowCount(averages: [0x7F]) == 127)
        #expect(FullTextRank.rowCount(averages: [0x82, 0xB1, 0x98, 0x48, 0xA3]) == 5_000_264)
        #expect(FullTextRank.rowCount(averages: [0x81]) == nil)  // cut short
        #expect(FullTextRank.rowCount(averages: [UInt8](repeating: 0xFF, count: 9)) == nil)  // 2^64 - 1: no Int
        #expect(FullTextRank.rowCount(averages: [UInt8](repeating: 0x80, count: 8) + [0x01]) == 1)
        let store = try store()
        let rows = try FullTextRank.rowCount(of: store.database)
        #expect(rows == (try store.database.scalarInt("SELECT count(*) FROM quotes")))
    }

    @Test func theIDFIsClampedFromHalfTheRows() {
        #expect(FullTextRank.halfOfRows(0) == 0 && FullTextRank.halfOfRows(5) == 3 && FullTextRank.halfOfRows(6) == 3)
        #expect(FullTextRank.inverseDocumentFrequency(hits: 3, rows: 6) == 1e-6)
        #expect(FullTextRank.inverseDocumentFrequency(hits: 2, rows: 5) > 0)
        #expect(FullTextRank.inverseDocumentFrequency(hits: 3, rows: 5) == 1e-6)
        #expect(FullTextRank.inverseDocumentFrequency(hits: 0, rows: Int.max) > 0)
    }

    @Test func weightsThatDoNotFitTheQueryAreAnErrorNotACrash() throws {
        let store = try store()
        try FullTextRank.register(on: store.database)
        for weights in [[], FullTextRank.weights([(5, 1.0)]), FullTextRank.weights([(0, 1.0), (1, 1.0)]),
                        FullTextRank.weights([(-1, 1.0)]), FullTextRank.weights([(Int.max, 1.0)]), [1, 2, 3]] {
            let statement = try store.database.prepare(
                "SELECT quoted_bm25(quotes_fts, ?2) FROM quotes_fts WHERE quotes_fts MATCH ?1 LIMIT 1")
            try statement.bind(#""quote""#, at: 1)
            try statement.bind(weights, at: 2)
            #expect(throws: DatabaseError.self) { _ = try statement.step() }
        }
        let text = try store.database.prepare("SELECT quoted_bm25(quotes_fts, 'x') FROM quotes_fts WHERE quotes_fts MATCH 'quote' LIMIT 1")
        #expect(throws: DatabaseError.self) { _ = try text.step() }
    }
}
