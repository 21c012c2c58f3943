import Testing
@testable import QuoteStore
import TestSupport

/// A word that no other indexed term starts with is searched as a plain term (cheaper on a big
/// store): the matches and their bm25 order must be exactly what the prefix query gives.
@Suite struct SearchRewriteTests {
    let folder = TemporaryFolder()

    func store() throws -> Store {
        var random = SeededGenerator(state: 0xFEED)
        let words = ["quote", "quotes", "light", "ocean", "time", "timeless", "journey", "kw42", "kw4242", "kw424", "Author", "naïve"]
        let quotes = (1...3_000).map { number in
            let text = (0..<Int.random(in: 3...9, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            return Quote(source: "custom.s", upstreamID: String(number), text: "\(text) n\(number)", author: "Author \(number % 50)")
        }
        return try makeStore(in: folder, quotes: quotes)
    }

    /// Every match, in order: ranked by bm25 as `find` ranks them, ties by rowid.
    func ranked(_ query: String, in store: Store) throws -> [Int] {
        let statement = try store.database.prepare(
            "SELECT rowid FROM quotes_fts WHERE quotes_fts MATCH ?1 ORDER BY rank, rowid")
        try statement.bind(query, at: 1)
        var rows: [Int] = []
        while try statement.step() { rows.append(statement.int(0)) }
        return rows
    }

    @Test(arguments: ["quote kw4242", "quotes", "quote", "light ocean", "time", "timeless", "kw42", "kw4242 light",
                      "Author 7", "author", "n12", "n1234", "OCEAN Light", "naïve", "jour", "zzz", "quote zzz", "ti me"])
    func theRewrittenQueryFindsWhatThePrefixQueryFinds(text: String) throws {
        let store = try store()
        let picker = QuotePicker(database: store.database)
        let rewritten = try picker.fullTextQuery(text)
        #expect(try ranked(rewritten, in: store) == ranked(FullTextQuery.make(text), in: store), "\(text) → \(rewritten)")
    }

    @Test func onlyWordsNoOtherTermStartsWithArePlain() throws {
        let store = try store()
        let picker = QuotePicker(database: store.database)
        // "quote" starts "quotes", "kw42" starts "kw424": prefixes stay; "ocean" and "kw4242" are plain.
        #expect(try picker.fullTextQuery("quote ocean kw42 kw4242") == #"("quote"* "ocean" "kw42"* "kw4242")"#)
        // Not plain ASCII: left to the tokenizer as a prefix.
        #expect(try picker.fullTextQuery("naïve") == #""naïve"*"#)
        #expect(try picker.fullTextQuery(#"a"b"#) == #""a""b"*"#)
    }
}
