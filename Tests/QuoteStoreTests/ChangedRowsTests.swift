import Testing
@testable import QuoteStore
@testable import QuoteModels

/// Each length's count is its quotes', and its quotes are numbered 1...count.
func lengthNumberingsAreTrue(_ store: Store) throws -> Bool {
    try store.database.scalarInt("""
        SELECT count(*) FROM quote_lengths l WHERE quotes <> (SELECT count(*) FROM quotes WHERE length = l.length)
        """) == 0 && store.database.scalarInt("""
        SELECT count(*) FROM (SELECT max(length_pick) AS top, count(DISTINCT length_pick) AS numbers, count(*) AS quotes
                                FROM quotes GROUP BY length)
         WHERE top <> quotes OR numbers <> quotes
        """) == 0
}

/// A merge writes changed rows with the update triggers dropped, doing their work itself: the
/// full-text index and the length numbering must come out as the triggers leave them, and the
/// triggers must be back after the merge, or after its rollback.
@Suite struct ChangedRowsTests {
    let folder = TemporaryFolder()

    private func schema(_ store: Store) throws -> [String] {
        let statement = try store.database.prepare("SELECT name || ': ' || sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
        var objects: [String] = []
        while try statement.step() { objects.append(statement.string(0)) }
        return objects
    }

    private func matches(_ store: Store, _ query: String) throws -> Int {
        try store.database.scalarInt("SELECT count(*) FROM quotes_fts WHERE quotes_fts MATCH ?1", [.text(query)]) ?? -1
    }

    private let first = [
        Quote(source: "custom.a", upstreamID: "1", text: "apple", author: "Ann"),
        Quote(source: "custom.a", upstreamID: "2", text: "berry", author: "Bob"),
        Quote(source: "custom.a", upstreamID: "3", text: "cherry pie", author: "Cy"),
        Quote(source: "custom.a", upstreamID: "4", text: "dates", author: "Di"),
        Quote(source: "custom.a", upstreamID: "5", text: "elder", author: "Ed"),
    ]

    private func storeWithFirstList() throws -> (Store, QuoteWriter) {
        let store = try Store(path: folder.file("quotes.db"), access: .write, now: 1_000)
        let writer = QuoteWriter(database: store.database)
        try store.database.transaction { () throws(StoreError) in
            try writer.ensureSource("custom.a", now: 1_000)
            try writer.apply(first, to: "custom.a", removeMissing: true, now: 1_000)
        }
        return (store, writer)
    }

    @Test func changedRowsAreFoundByTheirNewWordsAndKeepTheLengthNumberingsDense() throws {
        let (store, writer) = try storeWithFirstList()
        let before = try schema(store)
        var second = first
        // A new length (and the second of five five-letter quotes leaves its number), the same
        // length with new words, and a new author alone.
        second[1] = Quote(source: "custom.a", upstreamID: "2", text: "blueberry jam", author: "Bob")
        second[3] = Quote(source: "custom.a", upstreamID: "4", text: "grape", author: "Di")
        second[4] = Quote(source: "custom.a", upstreamID: "5", text: "elder", author: "Eve")
        let counts = try store.database.transaction { () throws(StoreError) in
            try writer.apply(second, to: "custom.a", removeMissing: true, now: 2_000)
        }
        #expect(counts == ChangeCounts(updated: 3, unchanged: 2))
        #expect(try schema(store) == before)
        #expect(try lengthNumberingsAreTrue(store))
        #expect(try matches(store, "blueberry") == 1 && matches(store, "berry") == 0)
        #expect(try matches(store, "grape") == 1 && matches(store, "dates") == 0)
        #expect(try matches(store, "Eve") == 1 && matches(store, "Ed") == 0)
        try store.database.execute("INSERT INTO quotes_fts (quotes_fts) VALUES ('integrity-check')")
        // The triggers are back: a write by another hand keeps the index and the numbering too.
        try store.database.execute("UPDATE quotes SET text = 'kiwi fruit salad' WHERE source = 'custom.a' AND upstream_id = '1'")
        #expect(try matches(store, "kiwi") == 1 && matches(store, "apple") == 0)
        #expect(try lengthNumberingsAreTrue(store))
    }

    @Test func aMergeThatChangesAddsAndRemovesKeepsTheIndexWholeWhateverTheBytes() throws {
        let (store, writer) = try storeWithFirstList()
        var second = first
        // Equal as Swift strings, not as bytes: "café" decomposed is another text to the store.
        second[0] = Quote(source: "custom.a", upstreamID: "1", text: "cafe\u{301} apple", author: nil)
        second[1] = Quote(source: "custom.a", upstreamID: "2", text: "berry", author: nil)
        second.remove(at: 2)
        second.append(Quote(source: "custom.a", upstreamID: "6", text: "fig", author: "Flo"))
        let counts = try store.database.transaction { () throws(StoreError) in
            try writer.apply(second, to: "custom.a", removeMissing: true, now: 2_000)
        }
        #expect(counts == ChangeCounts(inserted: 1, updated: 2, removed: 1, unchanged: 2))
        #expect(try lengthNumberingsAreTrue(store))
        try store.database.execute("INSERT INTO quotes_fts (quotes_fts) VALUES ('integrity-check')")
        #expect(try matches(store, "Ann") == 0 && matches(store, "Bob") == 0 && matches(store, "cherry") == 0)
        #expect(try matches(store, "fig") == 1 && matches(store, "berry") == 1)
        // And back: the decomposed text is deleted from the index as it was indexed.
        var third = first
        third[0] = Quote(source: "custom.a", upstreamID: "1", text: "caf\u{E9} apple", author: "Ann")
        try store.database.transaction { () throws(StoreError) in
            try writer.apply(third, to: "custom.a", removeMissing: true, now: 3_000)
        }
        try store.database.execute("INSERT INTO quotes_fts (quotes_fts) VALUES ('integrity-check')")
        #expect(try matches(store, "Ann") == 1 && matches(store, "fig") == 0 && matches(store, "cherry") == 1)
        #expect(try lengthNumberingsAreTrue(store))
    }

    @Test func aMergeRolledBackAfterAChangeLeavesRowsAndTriggersAsTheyWere() throws {
        let (store, _) = try storeWithFirstList()
        let before = try schema(store)
        try store.database.begin()
        let merge = try ListMerge(database: store.database, source: "custom.a", url: nil, now: 2_000)
        try merge.add(Quote(source: "custom.a", upstreamID: "2", text: "blueberry jam", author: "Bob"))
        store.database.rollback()
        #expect(try schema(store) == before)
        #expect(try store.database.scalarString("SELECT text FROM quotes WHERE upstream_id = '2'") == "berry")
        #expect(try matches(store, "berry") == 1 && matches(store, "blueberry") == 0)
        #expect(try lengthNumberingsAreTrue(store))
    }
}
