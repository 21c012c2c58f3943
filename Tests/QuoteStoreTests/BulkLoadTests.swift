import Testing
@testable import QuoteStore
@testable import QuoteModels
@testable import QuoteText

/// A first sync of a big list drops the secondary indexes and the full-text trigger, loads,
/// then fills the full-text index in one pass and puts everything back — in one transaction.
@Suite struct BulkLoadTests {
    let folder = TemporaryFolder()

    func schemaObjects(_ store: Store) throws -> [String] {
        let statement = try store.database.prepare("SELECT type || ' ' || name || ': ' || sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
        var objects: [String] = []
        while try statement.step() { objects.append(statement.string(0)) }
        return objects
    }

    func count(_ store: Store, _ sql: String) throws -> Int {
        try store.database.scalarInt(sql) ?? -1
    }

    @Test func aBigFirstLoadIsSearchableWholeAndLeavesTheSchemaAsTheMigrationsWroteIt() throws {
        // Stored quotes from the starter set come first, so the new rows do not start at id 1,
        // and the ids in text order ("1", "10", "100", "1000", "10000", "10001", ...) are not
        // the rows' order: the full-text index must still get every row exactly once.
        let store = try Store(path: folder.file("quotes.db"), access: .write, now: 1_000)
        let before = try schemaObjects(store)
        let starter = try count(store, "SELECT count(*) FROM quotes")
        let size = ListMerge.bulkThreshold + 1_234
        let quotes = (1...size).map { number in
            Quote(source: "custom.big", upstreamID: String(number),
                  text: number.isMultiple(of: 3) ? "needle number \(number)" : "hay number \(number)", lang: "en")
        }
        let counts = try store.database.transaction { () throws(StoreError) in
            let writer = QuoteWriter(database: store.database)
            try writer.ensureSource("custom.big", now: 1_000)
            return try writer.apply(quotes, to: "custom.big", removeMissing: true, now: 1_000)
        }
        #expect(counts == ChangeCounts(inserted: size))
        #expect(try schemaObjects(store) == before)
        #expect(try count(store, "SELECT count(*) FROM quotes") == starter + size)
        #expect(try count(store, "SELECT count(*) FROM quotes_fts") == starter + size)
        #expect(try count(store, "SELECT count(*) FROM quotes_fts WHERE quotes_fts MATCH 'needle'") == size / 3)
        #expect(try count(store, "SELECT count(*) FROM quotes_fts WHERE quotes_fts MATCH 'hay'") == size - size / 3)
        // Each new row is indexed under its own rowid, and the starter set is still found.
        #expect(try count(store, """
            SELECT count(*) FROM quotes_fts f JOIN quotes q ON q.id = f.rowid
             WHERE quotes_fts MATCH 'needle' AND q.text LIKE 'needle %' AND q.source = 'custom.big'
            """) == size / 3)
        #expect(try count(store, "SELECT count(*) FROM quotes_fts f JOIN quotes q ON q.id = f.rowid WHERE q.source <> 'custom.big'") == starter)
        try store.database.execute("INSERT INTO quotes_fts(quotes_fts) VALUES ('integrity-check')")
        #expect(try count(store, "SELECT count(DISTINCT pick) FROM quotes") == starter + size)
        // The new rows were most of the index: merged once into one segment, merges back on.
        #expect(try count(store, "SELECT count(DISTINCT segid) FROM quotes_fts_idx") == 1)
        #expect(try store.database.scalarString("SELECT v FROM quotes_fts_config WHERE k = 'automerge'") == "4")
        // Segments were flushed larger during the pass only: later writes flush at FTS5's default.
        #expect(try count(store, "SELECT v FROM quotes_fts_config WHERE k = 'hashsize'") == 1 << 20)
        #expect(try count(store, "SELECT v FROM quotes_fts_config WHERE k = 'crisismerge'") == 16)
        // The index builds sorted on helper threads; none is left for later statements.
        #expect(try count(store, "PRAGMA threads") == 0)

        // The trigger is back: a later single quote is searchable at once.
        try store.database.transaction { () throws(StoreError) in
            let writer = QuoteWriter(database: store.database)
            try writer.ensureSource("custom.late", now: 2_000)
            try writer.apply(
                [Quote(source: "custom.late", upstreamID: "1", text: "a lonely zebra")], to: "custom.late", removeMissing: true, now: 2_000)
        }
        #expect(try count(store, "SELECT count(*) FROM quotes_fts WHERE quotes_fts MATCH 'zebra'") == 1)
    }
}

/// A big resync holds FTS5's automatic merges until its end (they rewrote pages inside every
/// UPDATE, each journaled): the index stays whole and findable, and the setting comes back.
@Suite struct BigResyncTests {
    let folder = TemporaryFolder()

    @Test func aBigResyncKeepsTheFullTextIndexWholeAndItsMergesOn() throws {
        let store = try Store(path: folder.file("quotes.db"), access: .write, now: 1_000)
        let size = ListMerge.bulkThreshold + 500
        func quotes(changing changed: Set<Int>) -> [Quote] {
            (1...size).map { number in
                Quote(source: "custom.big", upstreamID: String(number),
                      text: changed.contains(number) ? "zebra crossing \(number)" : "plain words \(number)", lang: "en")
            }
        }
        let writer = QuoteWriter(database: store.database)
        try store.database.transaction { () throws(StoreError) in
            try writer.ensureSource("custom.big", now: 1_000)
            try writer.apply(quotes(changing: []), to: "custom.big", removeMissing: true, now: 1_000)
        }
        let changed = Set(stride(from: 7, through: size, by: 97))
        let counts = try store.database.transaction { () throws(StoreError) in
            try writer.apply(quotes(changing: changed), to: "custom.big", removeMissing: true, now: 2_000)
        }
        #expect(counts == ChangeCounts(updated: changed.count, unchanged: size - changed.count))
        // Their lengths changed too (`ChangedRows`): each length is still numbered densely.
        #expect(try lengthNumberingsAreTrue(store))
        try store.database.execute("INSERT INTO quotes_fts(quotes_fts) VALUES ('integrity-check')")
        #expect(try store.database.scalarInt("SELECT count(*) FROM quotes_fts WHERE quotes_fts MATCH 'zebra'") == changed.count)
        #expect(try store.database.scalarInt("SELECT count(*) FROM quotes_fts WHERE quotes_fts MATCH 'plain'") == size - changed.count)
        #expect(try store.database.scalarString("SELECT v FROM quotes_fts_config WHERE k = 'automerge'") == "4")
    }
}

/// `quotectl status` reads the counts the writers keep, and counts again when another hand changed
/// the quotes (they no longer add up to max(pick)).
@Suite struct QuoteCountTests {
    let folder = TemporaryFolder()

    @Test func keptCountsAreUsedOnlyWhileTheyAddUp() throws {
        let store = try Store(path: folder.file("quotes.db"), access: .write, now: 1_000)
        let writer = QuoteWriter(database: store.database)
        try store.database.transaction { () throws(StoreError) in
            try writer.ensureSource("custom.a", now: 1_000)
            try writer.apply((1...30).map { Quote(source: "custom.a", upstreamID: String($0), text: "quote \($0)") },
                             to: "custom.a", removeMissing: true, now: 1_000)
            try writer.apply((1...20).map { Quote(source: "custom.a", upstreamID: String($0), text: "quote \($0)") },
                             to: "custom.a", removeMissing: true, now: 1_000)
        }
        let status = StatusQuery(database: store.database)
        let counted = try store.database.scalarInt("SELECT count(*) FROM quotes WHERE source = 'custom.a'")
        #expect(try status.quotesPerSource()["custom.a"] == 20 && counted == 20)
        #expect(try store.database.scalarInt("SELECT quote_count FROM sources WHERE name = 'custom.a'") == 20)
        // Another hand (the sqlite3 shell) adds a row: the kept count is stale, and is not used.
        try store.database.execute("""
            INSERT INTO quotes (source, upstream_id, text, first_seen, last_seen, content_hash, length)
            VALUES ('custom.a', 'by hand', 'typed in', 1, 1, 7, 8)
            """)
        #expect(try status.quotesPerSource()["custom.a"] == 21)
    }
}
