import QuoteBase
import QuoteModels
import CSQLite
import QuoteSystem

/// Writes a custom list into the store as its records arrive, inside the caller's open
/// transaction (nothing is visible to readers before it commits). Each record is compared with
/// the stored version of itself — most often the next row of a walk over the stored rows in
/// row-id order, else one probe of the UNIQUE (source, upstream_id) index — and written only when
/// it changed (`ChangedRows`); at the end, the stored records the list no longer holds are
/// removed in one statement. What it remembers is a bit per row it has met (`RowSet`), never a
/// dictionary of the stored rows: memory does not grow with the list.
///
/// Into an empty source it skips the comparisons (a duplicate id is found by the insert), drops
/// the insert triggers at the first row and, from `bulkThreshold` rows on, the secondary indexes
/// too; the full-text index and the indexes are built at the end, far cheaper than row by row. A
/// big resync holds FTS5's automatic merges until its end. Changed rows are written with the
/// update triggers dropped (`ChangedRows` does their work); either `finish` creates again what was
/// dropped, before the caller commits.
public final class ListMerge {
    public enum Outcome: Equatable {
        case inserted, updated, unchanged
        /// An id met before in this list: the first record with it is the one kept.
        case duplicate
    }

    private let database: Database
    public let source: String
    private let now: Int
    /// Quotes the source held when the merge began.
    public let storedCount: Int
    private let lookup: Statement
    /// The walk beside the incoming list: stored rows in row-id order, and whether it is on one.
    private let walk: Statement
    private var walkHasRow = false
    /// Whether FTS5's automatic merges wait until the end of this merge.
    private var mergesFullText = false
    private let insert: Statement
    /// The writer of changed rows, made at the first (it drops the update triggers until `finish`).
    private var changedRows: ChangedRows?
    /// Rows this list wrote or found unchanged, and stored rows whose record was skipped as invalid.
    private var listed = RowSet()
    private var kept = RowSet()
    private var nextPick: Int
    /// The source's own dense numbering (`source_pick`) continues from its maximum.
    private var nextSourcePick: Int
    /// In a bulk load (its insert triggers dropped), the quotes of each length the store holds,
    /// counted here: a new quote's `length_pick` is its length's count plus one, and the counts
    /// are written back at the end. Otherwise nil: the INSERT reads the count and the trigger
    /// adds the quote to it.
    private var lengthCounts: [Int: Int]?
    private var counts = ChangeCounts()
    /// Set once a load into an empty source began: the first row id it inserted, the SQL that
    /// recreates what it dropped, and whether the secondary indexes went too (a bulk load).
    private var bulk: (firstID: Int, recreate: [String], indexes: Bool)?
    private let idsAreSequential: Bool
    /// How many quotes the store held before (all sources): the dense `pick` numbering's maximum.
    private let quotesBefore: Int

    convenience init(database: Database, source: String, url: String?, now: Int) throws(StoreError) {
        try QuoteWriter(database: database).ensureSource(source, url: url, now: now)
        do throws(DatabaseError) {
            try self.init(preparing: database, source: source, now: now)
        } catch {
            throw StoreError(error, path: database.path)
        }
    }

    /// Reads where the source stands and prepares the merge's statements (its row exists).
    private init(preparing database: Database, source: String, now: Int) throws(DatabaseError) {
        self.database = database
        self.source = source
        self.now = now
        let stored = try database.prepare("SELECT count(*), min(id) FROM quotes WHERE source = ?1")
        try stored.bind(source, at: 1)
        _ = try stored.step()
        storedCount = stored.int(0)
        // The bits start at the source's lowest row id: rows met in any order stay inside the span.
        if let lowest = stored.optionalInt(1) {
            listed = RowSet(from: lowest)
            kept = RowSet(from: lowest)
        }
        // The dense `pick` numbering continues from the current maximum (we hold the write lock).
        quotesBefore = try database.scalarInt("SELECT max(pick) FROM quotes") ?? 0
        nextPick = try Self.next(after: quotesBefore, "pick")
        nextSourcePick = try Self.next(after: database.scalarInt("SELECT max(source_pick) FROM quotes WHERE source = ?1", [.text(source)]) ?? 0,
                                       "source_pick")
        // Without AUTOINCREMENT a new row takes max(id) + 1; past the largest id SQLite picks ids at
        // random, and "every row from this id on is new" no longer holds (no bulk load then).
        idsAreSequential = (try database.scalarInt("SELECT max(id) FROM quotes") ?? 0) < Int.max
        // A big list's probes walk its whole unique index and table: in SQLite's default 2 MB
        // cache every other probe is a pread (docs/benchmarks.md).
        if storedCount >= Self.bulkThreshold {
            try database.setCacheSize(kibibytes: Self.bulkCacheKiB)
            try Self.setFullText("automerge", 0, in: database)
            mergesFullText = true
        }
        // The INSERT below may neither abort half-way (OR IGNORE) nor fail a foreign key per
        // statement (the source row exists: checked at COMMIT instead, reset by it), so in a bulk
        // load, with no trigger to fire, SQLite needs no statement journal for it.
        try database.execute("PRAGMA defer_foreign_keys = ON")
        lookup = try database.prepare("SELECT id, content_hash FROM quotes WHERE source = ?1 AND upstream_id = ?2")
        try lookup.bind(source, at: 1)
        // The stored rows in row-id order, up to the last one stored now (`+source`: a range scan
        // of the table, not the unique index, whose order is the ids' as text).
        walk = try database.prepare("""
            SELECT id, upstream_id, content_hash FROM quotes WHERE id > ?1 AND id <= ?2 AND +source = ?3 ORDER BY id
            """)
        try walk.bind(Int.min, at: 1)
        try walk.bind(try database.scalarInt("SELECT max(id) FROM quotes") ?? 0, at: 2)
        try walk.bind(source, at: 3)
        walkHasRow = storedCount > 0 ? try walk.step() : false
        insert = try database.prepare("""
            INSERT OR IGNORE INTO quotes (source, upstream_id, text, author, category, production, episode, lang,
                                          first_seen, last_seen, content_hash, length, pick, published, source_pick, length_pick)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10, ?11, ?12, ?13, ?14,
                    coalesce(?15, coalesce((SELECT quotes FROM quote_lengths WHERE length = ?11), 0) + 1))
            """)
    }

    /// Writes `quote` if it is new or changed (`hash`: its content hash, when already known).
    @discardableResult
    public func add(_ quote: Quote, hash known: Int? = nil) throws(StoreError) -> Outcome {
        try database.storeOperation { () throws(DatabaseError) in
            let hash = known ?? quote.contentHash
            if storedCount > 0, let (id, storedHash) = try stored(quote.upstreamID) {
                guard !listed.contains(id) else { return .duplicate }
                listed.insert(id)
                if storedHash == hash {
                    counts.unchanged += 1
                    return .unchanged
                }
                if changedRows == nil { changedRows = try ChangedRows(database: database, now: now) }
                try changedRows?.write(id: id, quote, hash: hash)
                counts.updated += 1
                return .updated
            }
            if storedCount == 0, idsAreSequential {
                if bulk == nil { try deferIndexing(of: .insertTriggers) }
                if counts.inserted == Self.bulkThreshold { try deferIndexing(of: .indexes) }
            }
            insert.reset()
            try insert.bind(source, at: 1)
            try insert.bind(quote.upstreamID, at: 2)
            try Self.bindFields(of: quote, hash: hash, now: now, to: insert)
            try insert.bind(nextPick, at: 12)
            try insert.bind(nextSourcePick, at: 14)
            let lengthPick = try lengthCounts.map { counts throws(DatabaseError) in try Self.next(after: counts[quote.length] ?? 0, "length_pick") }
            try insert.bind(lengthPick, at: 15)
            try insert.step()
            guard database.changes == 1 else {
                // Left out: a duplicate id, or a row the store's own rules refuse (OR IGNORE skips
                // both), which must not pass for a duplicate.
                guard try find(quote.upstreamID) != nil else {
                    throw DatabaseError(extendedCode: DatabaseError.ExtendedCode.constraintCheck,
                                        message: tr("record \(quote.upstreamID) breaks a rule of the quotes table"), sql: insert.sql)
                }
                return .duplicate
            }
            listed.insert(database.lastInsertRowID)
            nextPick = try Self.next(after: nextPick, "pick")
            nextSourcePick = try Self.next(after: nextSourcePick, "source_pick")
            if let lengthPick { lengthCounts?[quote.length] = lengthPick }
            counts.inserted += 1
            return .inserted
        }
    }

    /// A record of the list that was skipped as invalid: its stored version stays as it is.
    public func keep(upstreamID: String) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
            guard storedCount > 0, let (id, _) = try stored(upstreamID) else { return }
            kept.insert(id)
        }
    }

    /// Ends the merge: the update triggers come back, the stored quotes the list no longer holds
    /// are removed (with `removeMissing`); a bulk load's full-text index and secondary indexes are
    /// built.
    public func finish(removeMissing: Bool) throws(StoreError) -> ChangeCounts {
        defer { try? database.setCacheSize(kibibytes: Self.defaultCacheKiB) }
        _ = try removeUnlisted(removeMissing) { _, _ in nil }
        return try complete()
    }

    /// The same, once `shrinkGuard` saw (quotes to remove, quotes stored) and did not throw. Throws
    /// a `StoreError`, or what `shrinkGuard` throws (the caller's own refusal, passed on as it is).
    public func finish(removeMissing: Bool, shrinkGuard: (_ toRemove: Int, _ stored: Int) throws -> Void) throws -> ChangeCounts {
        defer { try? database.setCacheSize(kibibytes: Self.defaultCacheKiB) }
        let refusal = try removeUnlisted(removeMissing) { toRemove, stored in
            do {
                try shrinkGuard(toRemove, stored)
                return nil
            } catch {
                return error
            }
        }
        if let refusal { throw refusal }
        return try complete()
    }

    /// Creates the update triggers again (their delete siblings fire below), then removes the
    /// stored quotes the list no longer holds (with `removeMissing`) unless `refusal`,
    /// told (quotes to remove, quotes stored), answers why not: then nothing is removed, and that
    /// answer is returned. Counted and removed in one definition of `quoted_listed`: SQLite cannot
    /// redefine a function while the merge's walk is still open.
    private func removeUnlisted(_ removeMissing: Bool, refusal: (Int, Int) -> (any Error)?) throws(StoreError) -> (any Error)? {
        try database.storeOperation { () throws(DatabaseError) -> (any Error)? in
            try changedRows?.finish()
            changedRows = nil
            if mergesFullText {
                try Self.setFullText("automerge", 4, in: database)
            }
            guard removeMissing, storedCount > 0 else { return refusal(0, storedCount) }
            let listed = self.listed, kept = self.kept
            return try database.withPredicate("quoted_listed", { listed.contains($0) || kept.contains($0) }) { () throws(DatabaseError) -> (any Error)? in
                let toRemove = try database.scalarInt("SELECT count(*) FROM quotes WHERE source = ?1 AND NOT quoted_listed(id)",
                                                      [.text(source)]) ?? 0
                if let refused = refusal(toRemove, storedCount) { return refused }
                if toRemove > 0 {
                    try database.execute("DELETE FROM quotes WHERE source = ?1 AND NOT quoted_listed(id)", [.text(source)])
                    counts.removed = database.changes
                }
                return nil
            }
        }
    }

    /// Completes the merge (`completeStatements`) and says what it changed.
    private func complete() throws(StoreError) -> ChangeCounts {
        try database.storeOperation { () throws(DatabaseError) in try completeStatements() }
        return counts
    }

    /// The source's quote count, and what a bulk load put off: its full-text index and indexes.
    private func completeStatements() throws(DatabaseError) {
        // What `quotectl status` shows, kept here rather than counted there.
        try database.execute("UPDATE sources SET quote_count = ?2 WHERE name = ?1 AND quote_count IS NOT ?2",
                             [.text(source), .integer(storedCount + counts.inserted - counts.removed)])
        if let lengthCounts {
            let write = try database.prepare("""
                INSERT INTO quote_lengths (length, quotes) VALUES (?1, ?2) ON CONFLICT (length) DO UPDATE SET quotes = excluded.quotes
                """)
            for (length, quotes) in lengthCounts {
                write.reset()
                try write.bind([.integer(length), .integer(quotes)])
                try write.step()
            }
        }
        if let bulk { try buildIndexes(after: bulk) }
    }

    /// A bulk load's full-text index and secondary indexes, built once its rows are in.
    private func buildIndexes(after bulk: (firstID: Int, recreate: [String], indexes: Bool)) throws(DatabaseError) {
        // One pass over the new rows fills the full-text index several times faster than a
        // trigger per row (docs/benchmarks.md), in rowid order: FTS5 flushes its
        // pending terms whenever a rowid is lower than the last one (`+source` keeps the planner
        // off the UNIQUE index, whose order is the upstream ids' as text).
        // FTS5 flushes a segment per megabyte of pending terms and, left to itself, merges
        // them level by level as they come, rewriting each posting several times. When the new
        // rows are most of the index, merges are held and done once into one segment
        // ('optimize', which rewrites the whole index: not worth it for a few rows added to a
        // big store), which costs less than the merges it replaces, and searches then read
        // one segment instead of dozens (docs/benchmarks.md).
        //
        // During that pass FTS5 flushes every 2 MiB instead of every 1 MiB (half the segments),
        // and its crisis merge waits for 64 segments on a level instead of 16: below 64 × 64
        // flushes (~8 GiB of terms) the postings are then rewritten once on their way to
        // `optimize` rather than once per level, so the pass's cost follows the list's size.
        // `optimize`'s segment lands on level 3 for a million quotes and for ten million (it
        // follows the levels the pass built), above where a later resync's merges reach; 8 MiB
        // flushes would put a million quotes' segment on level 1, where a 1% resync's merges
        // rewrite it (docs/benchmarks.md).
        let mergeOnce = bulk.indexes && counts.inserted >= quotesBefore
        if mergeOnce {
            try Self.setFullText("automerge", 0, in: database)
            try Self.setFullText("hashsize", Self.bulkFullTextFlushBytes, in: database)
            try Self.setFullText("crisismerge", Self.bulkCrisisMerge, in: database)
        }
        try database.execute("""
            INSERT INTO quotes_fts (rowid, text, author)
            SELECT id, text, author FROM quotes WHERE id >= ?1 AND +source = ?2 ORDER BY id
            """, [.integer(bulk.firstID), .text(source)])
        if mergeOnce {
            // FTS5's defaults again: they are kept in the store, for every later write.
            try Self.setFullText("crisismerge", Self.crisisMerge, in: database)
            try Self.setFullText("hashsize", Self.fullTextFlushBytes, in: database)
            try Self.setFullText("automerge", 4, in: database)
            try database.execute("INSERT INTO quotes_fts (quotes_fts) VALUES ('optimize')")
        }
        if bulk.indexes {
            // Sorting runs best in a small cache: each index is built faster in 2 MB than in
            // 24 MB (the sorter's memory follows cache_size), with less memory (docs/benchmarks.md).
            try database.setCacheSize(kibibytes: Self.defaultCacheKiB)
            // SQLite's sorter sorts and merges its runs on helper threads when allowed, which
            // shortens the index builds even on two processors (docs/benchmarks.md). Back to
            // none after: no other statement of this connection sorts that much.
            try database.execute("PRAGMA threads = \(min(Processors.available, 4))")
        }
        defer { if bulk.indexes { try? database.execute("PRAGMA threads = 0") } }
        for sql in bulk.recreate { try database.execute(sql) }
    }

    /// The number after `number` in one of the dense numberings; a store whose numbering has
    /// reached Int's end is damaged (no store holds that many quotes), said rather than trapped.
    static func next(after number: Int, _ numbering: String) throws(DatabaseError) -> Int {
        let (next, overflow) = number.addingReportingOverflow(1)
        guard !overflow else {
            throw DatabaseError(extendedCode: SQLITE_CORRUPT, message: tr("the store's \(numbering) numbering has reached its end"))
        }
        return next
    }

    /// From this many new quotes for an empty source on, the load goes in bulk.
    public static let bulkThreshold = 20_000
    /// 24 MiB while rows stream in: a larger cache gains no time and costs peak memory
    /// (docs/benchmarks.md).
    static let bulkCacheKiB = 24 * 1024
    /// SQLite's default.
    static let defaultCacheKiB = 2_000
    /// FTS5's pending terms are written out as a segment at this size (FTS5's default), and at
    /// the larger one during a bulk load's full-text pass.
    static let fullTextFlushBytes = 1 << 20
    static let bulkFullTextFlushBytes = 2 << 20
    /// FTS5 merges a level's segments into one on the next level once it holds this many
    /// (FTS5's default), and the larger number during a bulk load's full-text pass.
    static let crisisMerge = 16
    static let bulkCrisisMerge = 64

    /// Sets one of FTS5's settings for the full-text index (kept in the store).
    private static func setFullText(_ name: String, _ value: Int, in database: Database) throws(DatabaseError) {
        try database.execute("INSERT INTO quotes_fts (quotes_fts, rank) VALUES (?1, ?2)", [.text(name), .integer(value)])
    }



    /// The stored version of a record: most often the next row of the walk (a list keeps its
    /// order from one sync to the next, and its rows were inserted in that order), else one
    /// probe of the unique index, after which the walk goes on from the row found.
    private func stored(_ upstreamID: String) throws(DatabaseError) -> (id: Int, hash: Int)? {
        if walkHasRow, walk.text(1, equals: upstreamID) {
            let row = (id: walk.int(0), hash: walk.int(2))
            walkHasRow = try walk.step()
            return row
        }
        let found = try find(upstreamID)
        if let found, !walkHasRow || found.id > walk.int(0) {
            walk.resetKeepingBindings()
            try walk.bind(found.id, at: 1)
            walkHasRow = try walk.step()
        }
        return found
    }

    private func find(_ upstreamID: String) throws(DatabaseError) -> (id: Int, hash: Int)? {
        lookup.resetKeepingBindings()
        try lookup.bind(upstreamID, at: 2)
        return try lookup.step() ? (lookup.int(0), lookup.int(1)) : nil
    }

    /// A load into an empty source drops, at its first row, the triggers on insert: the one that
    /// feeds the full-text index (filled from the new rows in one pass at the end instead) and the
    /// ones that number a row without `pick` or `source_pick` (every row here has both) and the
    /// one that counts a quote in its length (counted here instead: `lengthCounts`). An INSERT that fires no
    /// trigger needs no statement journal, which past 64 KiB becomes a file in /var/tmp written
    /// three times per row, nearly tripling the time to stream a big list in (docs/benchmarks.md).
    /// From `bulkThreshold` rows on it drops the quotes table's own indexes
    /// too (not the UNIQUE constraint's, which finds duplicates), rebuilt by sorting at the end.
    private enum Deferred { case insertTriggers, indexes }

    private func deferIndexing(of kind: Deferred) throws(DatabaseError) {
        let statement = try database.prepare("""
            SELECT type, name, sql FROM sqlite_master
             WHERE tbl_name = 'quotes' AND sql IS NOT NULL
               AND (?1 AND type = 'trigger' AND name IN ('quotes_fts_on_insert', 'quotes_pick_on_insert', 'quotes_source_pick_on_insert', 'quotes_length_on_insert') OR NOT ?1 AND type = 'index')
            """)
        try statement.bind(kind == .insertTriggers, at: 1)
        var objects: [(type: String, name: String, sql: String)] = []
        while try statement.step() { objects.append((statement.string(0), statement.string(1), statement.string(2))) }
        for object in objects { try database.execute("DROP \(object.type.uppercased()) \"\(object.name)\"") }
        if var started = bulk {
            started.recreate = objects.map(\.sql) + started.recreate
            started.indexes = true
            bulk = started
            // A big load touches every page of the table and its unique index: a larger cache keeps
            // them from being spilled to the WAL and read back.
            try database.setCacheSize(kibibytes: Self.bulkCacheKiB)
        } else {
            let firstID = (try database.scalarInt("SELECT max(id) FROM quotes") ?? 0) + 1
            bulk = (firstID, objects.map(\.sql), false)
            var lengths: [Int: Int] = [:]
            let stored = try database.prepare("SELECT length, quotes FROM quote_lengths")
            while try stored.step() { lengths[stored.int(0)] = stored.int(1) }
            lengthCounts = lengths
        }
    }

    /// A quote's fields at the parameters the merge's INSERT and `ChangedRows`' UPDATE share.
    static func bindFields(of quote: Quote, hash: Int, now: Int, to statement: Statement) throws(DatabaseError) {
        try statement.bind(quote.text, at: 3)
        try statement.bind(quote.author, at: 4)
        try statement.bind(quote.category, at: 5)
        try statement.bind(quote.production, at: 6)
        try statement.bind(quote.episode, at: 7)
        try statement.bind(quote.lang, at: 8)
        try statement.bind(now, at: 9)
        try statement.bind(hash, at: 10)
        try statement.bind(quote.length, at: 11)
        try statement.bind(quote.published, at: 13)
    }
}
