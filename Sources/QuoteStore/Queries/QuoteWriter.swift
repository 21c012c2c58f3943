import QuoteModels
/// Writes a source's quotes, touching only rows that changed. Call inside a
/// transaction: a caller applies one source's batch all or nothing.
public struct QuoteWriter {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    /// Makes sure the `sources` row exists (quotes reference it).
    public func ensureSource(_ name: String, url: String? = nil, now: Int) throws(StoreError) {
        guard let kind = SourceName.kind(of: name) else { throw StoreError.invalidSourceName(name) }
        try database.storeOperation { () throws(DatabaseError) in
            try database.execute("""
                INSERT INTO sources (name, kind, url, configured, created_at) VALUES (?1, ?2, ?3, 1, ?4)
                ON CONFLICT (name) DO UPDATE SET url = excluded.url WHERE excluded.url IS NOT NULL AND url IS NOT excluded.url
                """, [.text(name), .text(kind.rawValue), url.map(SQLValue.text) ?? .null, .integer(now)])
        }
    }

    /// Applies `quotes` to `source`. With `removeMissing` the batch is the whole
    /// truth (custom lists): stored quotes absent from it are deleted. Without it
    /// (happiness, breakingbad) quotes accumulate. Quotes the caller skipped as
    /// invalid must be listed in `keep`, so a bad record never removes a good one.
    /// A later duplicate of an id is left out.
    @discardableResult
    public func apply(_ quotes: [Quote], to source: String, removeMissing: Bool, keep: Set<String> = [], now: Int) throws(StoreError) -> ChangeCounts {
        try apply(to: source, removeMissing: removeMissing, keep: keep, now: now) { visit throws(StoreError) in
            for quote in quotes { try visit(quote) }
        }
    }

    /// The same for quotes that stream (a million-quote file is never an array): `forEach`
    /// calls its argument with each quote.
    @discardableResult
    public func apply(to source: String, removeMissing: Bool, keep: Set<String> = [], now: Int,
                      _ forEach: ((Quote) throws(StoreError) -> Void) throws(StoreError) -> Void) throws(StoreError) -> ChangeCounts {
        let merge = try ListMerge(database: database, source: source, url: nil, now: now)
        try forEach { quote throws(StoreError) in try merge.add(quote) }
        for upstreamID in keep { try merge.keep(upstreamID: upstreamID) }
        return try merge.finish(removeMissing: removeMissing)
    }

    /// Marks a quote as `source`'s quote of the day (UTC day).
    public func setDailyQuote(source: String, upstreamID: String, day: String) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
            try database.execute("""
                INSERT OR REPLACE INTO daily_quotes (source, day, quote_id)
                SELECT ?1, ?3, id FROM quotes WHERE source = ?1 AND upstream_id = ?2
                """, [.text(source), .text(upstreamID), .text(day)])
        }
    }

    /// The latest day's quote of `source` is `day`'s quote too (the upstream said "unchanged").
    public func repeatLatestDailyQuote(source: String, day: String) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
            try database.execute("""
                INSERT OR REPLACE INTO daily_quotes (source, day, quote_id)
                SELECT source, ?2, quote_id FROM daily_quotes WHERE source = ?1 ORDER BY day DESC LIMIT 1
                """, [.text(source), .text(day)])
        }
    }

    /// Records which custom lists the configuration names: a list removed from it stops
    /// syncing, but its quotes stay until `quotectl forget NAME`.
    public func markConfiguredLists(_ names: [String]) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
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
    }

    /// Deletes a source and everything it brought (`quotectl forget`).
    public func forget(source: String) throws(StoreError) -> Int {
        try database.storeOperation { () throws(DatabaseError) in
            let count = try database.scalarInt("SELECT count(*) FROM quotes WHERE source = ?1", [.text(source)]) ?? 0
            try database.execute("DELETE FROM quotes WHERE source = ?1", [.text(source)])
            try database.execute("DELETE FROM sources WHERE name = ?1", [.text(source)])
            return count
        }
    }
}
