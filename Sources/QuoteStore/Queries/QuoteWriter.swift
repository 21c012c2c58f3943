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

/// Writes a source's quotes, touching only rows that changed. Call inside a
/// transaction: a caller applies one source's batch all or nothing.
public struct QuoteWriter {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Makes sure the `sources` row exists (quotes reference it).
    public func ensureSource(_ name: String, url: String? = nil, now: Int) throws(DatabaseError) {
        guard let kind = SourceName.kind(of: name) else {
            throw DatabaseError(extendedCode: 1, message: "not a source name: \(name)")
        }
        try database.run("""
            INSERT INTO sources (name, kind, url, configured, created_at) VALUES (?1, ?2, ?3, 1, ?4)
            ON CONFLICT (name) DO UPDATE SET url = coalesce(excluded.url, url)
            """, [.text(name), .text(kind), url.map(SQLValue.text) ?? .null, .integer(now)])
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
        var counts = ChangeCounts()
        var stored: [String: (id: Int, hash: Int)] = [:]
        let existing = try database.prepare("SELECT upstream_id, id, content_hash FROM quotes WHERE source = ?1")
        try existing.bind(source, at: 1)
        while try existing.step() {
            stored[existing.string(0)] = (existing.int(1), existing.int(2))
        }
        let insert = try database.prepare("""
            INSERT INTO quotes (source, upstream_id, text, author, category, production, episode, lang,
                                first_seen, last_seen, content_hash, length, pick)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10, ?11, (SELECT coalesce(max(pick), 0) + 1 FROM quotes))
            """)
        let update = try database.prepare("""
            UPDATE quotes SET text = ?3, author = ?4, category = ?5, production = ?6, episode = ?7, lang = ?8,
                              last_seen = ?9, content_hash = ?10, length = ?11
             WHERE id = ?1
            """)
        var seen = Set<String>(minimumCapacity: quotes.count)
        for quote in quotes { seen.insert(quote.upstreamID) }
        if let shrinkGuard, removeMissing {
            let toRemove = stored.keys.reduce(0) { $0 + (seen.contains($1) || keep.contains($1) ? 0 : 1) }
            try shrinkGuard(toRemove, stored.count)
        }
        var written = Set<String>(minimumCapacity: quotes.count)
        for quote in quotes {
            guard written.insert(quote.upstreamID).inserted else { continue }
            let hash = quote.contentHash
            if let old = stored[quote.upstreamID] {
                if old.hash == hash {
                    counts.unchanged += 1
                    continue
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
                try insert.step()
                counts.inserted += 1
            }
        }
        if removeMissing {
            let delete = try database.prepare("DELETE FROM quotes WHERE id = ?1")
            for (upstreamID, old) in stored where !seen.contains(upstreamID) && !keep.contains(upstreamID) {
                try delete.run([.integer(old.id)])
                counts.removed += 1
            }
        }
        return counts
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
        try database.run("""
            INSERT OR REPLACE INTO daily_quotes (source, day, quote_id)
            SELECT ?1, ?3, id FROM quotes WHERE source = ?1 AND upstream_id = ?2
            """, [.text(source), .text(upstreamID), .text(day)])
    }

    /// Deletes a source and everything it brought (`quotectl forget`).
    public func forget(source: String) throws(DatabaseError) -> Int {
        let count = try database.scalarInt("SELECT count(*) FROM quotes WHERE source = ?1", [.text(source)]) ?? 0
        try database.run("DELETE FROM quotes WHERE source = ?1", [.text(source)])
        try database.run("DELETE FROM sources WHERE name = ?1", [.text(source)])
        return count
    }
}
