/// What a write did, for summaries ("3 changed") and the sync log.
public struct ChangeCounts: Equatable, Sendable {
    public var inserted = 0
    public var updated = 0
    public var removed = 0
    public var unchanged = 0
    public var skipped = 0

    public init(inserted: Int = 0, updated: Int = 0, removed: Int = 0, unchanged: Int = 0, skipped: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.removed = removed
        self.unchanged = unchanged
        self.skipped = skipped
    }

    public var changed: Int { inserted + updated + removed }

    public static func += (lhs: inout ChangeCounts, rhs: ChangeCounts) {
        lhs.inserted += rhs.inserted
        lhs.updated += rhs.updated
        lhs.removed += rhs.removed
        lhs.unchanged += rhs.unchanged
        lhs.skipped += rhs.skipped
    }
}

/// The quotes of one write: every upstream id up front (to know what would be
/// removed before anything is written), then the quotes themselves, streamed.
/// Each id must come once.
public struct QuoteBatch {
    /// How many quotes the batch holds.
    public let count: Int
    /// Whether the batch holds the quote with this upstream id.
    public let contains: (String) -> Bool
    public let forEach: ((Quote) throws -> Void) throws -> Void

    public init(count: Int, contains: @escaping (String) -> Bool, forEach: @escaping ((Quote) throws -> Void) throws -> Void) {
        self.count = count
        self.contains = contains
        self.forEach = forEach
    }

    /// A batch of an array; later duplicates of an id are dropped.
    public init(_ quotes: [Quote]) {
        var ids = Set<String>(minimumCapacity: quotes.count)
        var unique: [Quote] = []
        unique.reserveCapacity(quotes.count)
        for quote in quotes where ids.insert(quote.upstreamID).inserted { unique.append(quote) }
        self.count = unique.count
        self.contains = { ids.contains($0) }
        self.forEach = { body in for quote in unique { try body(quote) } }
    }
}

/// Writes a source's quotes, touching only rows that changed. Call inside a
/// transaction: a caller applies one source's batch all or nothing.
public struct QuoteWriter {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Makes sure the `sources` row exists (quotes reference it).
    public func ensureSource(_ name: String, url: String? = nil, now: Int) throws {
        guard let kind = SourceName.kind(of: name) else { throw StoreError.invalidSourceName(name) }
        try database.execute("""
            INSERT INTO sources (name, kind, url, configured, created_at) VALUES (?1, ?2, ?3, 1, ?4)
            ON CONFLICT (name) DO UPDATE SET url = coalesce(excluded.url, url)
            """, [.text(name), .text(kind.rawValue), url.map(SQLValue.text) ?? .null, .integer(now)])
    }

    /// Applies `quotes` to `source`. With `removeMissing` the batch is the whole
    /// truth (custom lists): stored quotes absent from it are deleted. Without it
    /// (happiness, breakingbad) quotes accumulate. Quotes the caller skipped as
    /// invalid must be listed in `keep`, so a bad record never removes a good one.
    /// `shrinkGuard` sees (quotes to remove, quotes stored) before anything is written
    /// and may throw to refuse the batch.
    @discardableResult
    public func apply(_ quotes: [Quote], to source: String, removeMissing: Bool, keep: Set<String> = [], now: Int,
                      shrinkGuard: ((_ toRemove: Int, _ stored: Int) throws -> Void)? = nil) throws -> ChangeCounts {
        try apply(QuoteBatch(quotes), to: source, removeMissing: removeMissing, keep: keep, now: now, shrinkGuard: shrinkGuard)
    }

    /// Each stored quote of `source` by upstream id: its row id and content hash.
    private func storedVersions(of source: String) throws(DatabaseError) -> [String: (id: Int, hash: Int)] {
        var stored: [String: (id: Int, hash: Int)] = [:]
        let existing = try database.prepare("SELECT upstream_id, id, content_hash FROM quotes WHERE source = ?1")
        try existing.bind(source, at: 1)
        while try existing.step() {
            stored[existing.string(0)] = (existing.int(1), existing.int(2))
        }
        return stored
    }

    /// The same for a batch that streams its quotes (a million-quote list is never an array).
    @discardableResult
    public func apply(_ batch: QuoteBatch, to source: String, removeMissing: Bool, keep: Set<String> = [], now: Int,
                      shrinkGuard: ((_ toRemove: Int, _ stored: Int) throws -> Void)? = nil) throws -> ChangeCounts {
        var counts = ChangeCounts()
        let stored = try storedVersions(of: source)
        if let shrinkGuard, removeMissing {
            let toRemove = stored.keys.reduce(0) { $0 + (batch.contains($1) || keep.contains($1) ? 0 : 1) }
            try shrinkGuard(toRemove, stored.count)
        }
        // The dense `pick` numbering continues from the current maximum (we hold the write lock).
        var nextPick = (try database.scalarInt("SELECT max(pick) FROM quotes") ?? 0) + 1
        let bulk = stored.isEmpty && batch.count >= Self.bulkThreshold
        let dropped = bulk ? try dropForBulkLoad() : []
        // Without AUTOINCREMENT a new row takes max(id) + 1, and we hold the write lock: every
        // row this batch inserts has an id from here on (past the largest id SQLite picks
        // ids at random, and the range below becomes the whole table).
        let largestID = try database.scalarInt("SELECT max(id) FROM quotes") ?? 0
        let firstNewID = largestID < Int.max ? largestID + 1 : Int.min
        // A big batch touches every page of the table, its unique index and the FTS index:
        // a larger cache keeps them from being spilled to the WAL and read back.
        if batch.count >= Self.bulkThreshold { try database.setCacheSize(kibibytes: Self.bulkCacheKiB) }
        defer { if batch.count >= Self.bulkThreshold { try? database.setCacheSize(kibibytes: 2_000) } }
        let insert = try database.prepare("""
            INSERT INTO quotes (source, upstream_id, text, author, category, production, episode, lang,
                                first_seen, last_seen, content_hash, length, pick)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10, ?11, ?12)
            """)
        let update = try database.prepare("""
            UPDATE quotes SET text = ?3, author = ?4, category = ?5, production = ?6, episode = ?7, lang = ?8,
                              last_seen = ?9, content_hash = ?10, length = ?11
             WHERE id = ?1
            """)
        try batch.forEach { quote in
            let hash = quote.contentHash
            if let old = stored[quote.upstreamID] {
                if old.hash == hash {
                    counts.unchanged += 1
                    return
                }
                update.reset()
                try update.bind(old.id, at: 1)
                try bindFields(of: quote, hash: hash, now: now, to: update)
                try update.step()
                counts.updated += 1
            } else {
                insert.reset()
                try insert.bind(source, at: 1)
                try insert.bind(quote.upstreamID, at: 2)
                try bindFields(of: quote, hash: hash, now: now, to: insert)
                try insert.bind(nextPick, at: 12)
                try insert.step()
                nextPick += 1
                counts.inserted += 1
            }
        }
        if bulk {
            // One pass over the new rows fills the full-text index far faster than a trigger
            // per row (measured: 3.5 s instead of 15 s for a million quotes), and rebuilding an
            // index by sorting is far cheaper than a million random inserts into it. The rows go
            // in rowid order (a range scan; `+source` keeps the planner off the UNIQUE index,
            // whose order is the upstream ids' as text): FTS5 flushes its pending terms whenever
            // a rowid is lower than the last one, so ids in text order ("1", "10", "100", "2")
            // cost a flush each time (measured with sqlite3: 15.6 s instead of 5.8 s for a
            // million quotes).
            try database.execute("""
                INSERT INTO quotes_fts (rowid, text, author)
                SELECT id, text, author FROM quotes WHERE id >= ?1 AND +source = ?2 ORDER BY id
                """, [.integer(firstNewID), .text(source)])
            for sql in dropped { try database.execute(sql) }
        }
        if removeMissing {
            let delete = try database.prepare("DELETE FROM quotes WHERE id = ?1")
            for (upstreamID, old) in stored where !batch.contains(upstreamID) && !keep.contains(upstreamID) {
                try delete.execute([.integer(old.id)])
                counts.removed += 1
            }
        }
        return counts
    }

    /// From this many new quotes for an empty source on, the secondary indexes are
    /// dropped and rebuilt around the inserts (inside the same transaction, so
    /// readers never see the store without them).
    static let bulkThreshold = 20_000
    /// 24 MiB: 48 MiB gained nothing measurable on a million quotes and cost ~40 MB of peak RSS.
    static let bulkCacheKiB = 24 * 1024

    /// Drops the quotes table's own indexes (not the UNIQUE constraint's) and the
    /// trigger that feeds the full-text index, returning their CREATE statements
    /// exactly as the migrations wrote them, to be run again after the load.
    private func dropForBulkLoad() throws(DatabaseError) -> [String] {
        let statement = try database.prepare("""
            SELECT type, name, sql FROM sqlite_master
             WHERE tbl_name = 'quotes' AND sql IS NOT NULL
               AND (type = 'index' OR (type = 'trigger' AND name = 'quotes_fts_on_insert'))
            """)
        var objects: [(type: String, name: String, sql: String)] = []
        while try statement.step() { objects.append((statement.string(0), statement.string(1), statement.string(2))) }
        for object in objects { try database.execute("DROP \(object.type.uppercased()) \"\(object.name)\"") }
        return objects.map(\.sql)
    }

    private func bindFields(of quote: Quote, hash: Int, now: Int, to statement: Statement) throws(DatabaseError) {
        try statement.bind(quote.text, at: 3)
        try statement.bind(quote.author, at: 4)
        try statement.bind(quote.category, at: 5)
        try statement.bind(quote.production, at: 6)
        try statement.bind(quote.episode, at: 7)
        try statement.bind(quote.lang, at: 8)
        try statement.bind(now, at: 9)
        try statement.bind(hash, at: 10)
        try statement.bind(quote.length, at: 11)
    }

    /// Marks a quote as `source`'s quote of the day (UTC day).
    public func setDailyQuote(source: String, upstreamID: String, day: String) throws(DatabaseError) {
        try database.execute("""
            INSERT OR REPLACE INTO daily_quotes (source, day, quote_id)
            SELECT ?1, ?3, id FROM quotes WHERE source = ?1 AND upstream_id = ?2
            """, [.text(source), .text(upstreamID), .text(day)])
    }

    /// The latest day's quote of `source` is `day`'s quote too (the upstream said "unchanged").
    public func repeatLatestDailyQuote(source: String, day: String) throws(DatabaseError) {
        try database.execute("""
            INSERT OR REPLACE INTO daily_quotes (source, day, quote_id)
            SELECT source, ?2, quote_id FROM daily_quotes WHERE source = ?1 ORDER BY day DESC LIMIT 1
            """, [.text(source), .text(day)])
    }

    /// Whether the store knows `source` at all.
    public func hasSource(_ source: String) throws(DatabaseError) -> Bool {
        try database.scalarInt("SELECT count(*) FROM sources WHERE name = ?1", [.text(source)]) ?? 0 > 0
    }

    /// Records which custom lists the configuration names: a list removed from it stops
    /// syncing, but its quotes stay until `quotectl forget NAME`.
    public func markConfiguredLists(_ names: [String]) throws(DatabaseError) {
        // Mostly nothing changes: then nothing is written (each sync run asks).
        let wanted = Set(names)
        let current = try database.prepare("SELECT name, configured, url IS NOT NULL FROM sources WHERE kind = 'custom'")
        var differs = false
        while try current.step() {
            let name = current.string(0), configured = current.int(1) == 1, synced = current.int(2) == 1
            if wanted.contains(name) ? !configured : (synced && configured) { differs = true }
        }
        guard differs else { return }
        try database.execute("UPDATE sources SET configured = 0 WHERE kind = 'custom' AND url IS NOT NULL")
        let mark = try database.prepare("UPDATE sources SET configured = 1 WHERE name = ?1")
        for name in names { try mark.execute([.text(name)]) }
    }

    /// Deletes a source and everything it brought (`quotectl forget`).
    public func forget(source: String) throws(DatabaseError) -> Int {
        let count = try database.scalarInt("SELECT count(*) FROM quotes WHERE source = ?1", [.text(source)]) ?? 0
        try database.execute("DELETE FROM quotes WHERE source = ?1", [.text(source)])
        try database.execute("DELETE FROM sources WHERE name = ?1", [.text(source)])
        return count
    }
}
