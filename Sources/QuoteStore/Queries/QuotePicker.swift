import QuoteModels
import QuoteBase
/// Picks quotes: uniformly at random, or as the quote of the day.
public struct QuotePicker {
    let database: Database
    private let unfiltered: UnfilteredPick

    init(database: Database) {
        self.database = database
        unfiltered = UnfilteredPick(database: database)
    }

    /// Runs `body`, the reads of one answer, in one snapshot of the store: a sync committing
    /// meanwhile changes none of them, and the read lock is taken once, not once per draw.
    /// Nothing in `body` may write the store.
    public func inOneSnapshot<T>(_ body: () throws -> T) throws -> T {
        guard !database.isInTransaction else { return try body() }
        try database.storeOperation { () throws(DatabaseError) in try database.execute("BEGIN DEFERRED") }
        defer { database.rollback() }
        return try body()
    }

    /// `filter`'s WHERE clause, with what its statements call defined on the connection.
    private func clause(_ filter: QuoteFilter, authorBySearch: Bool = false) throws(DatabaseError) -> (sql: String, values: [SQLValue]) {
        if filter.needsCaseFolding { try database.defineCaseFolding() }
        return filter.whereClause(authorBySearch: authorBySearch)
    }

    /// A uniformly random quote among those matching `filter`, or nil if none does.
    ///
    /// Unfiltered: `UnfilteredPick`, a random row id (or, past the store's gaps, a random `pick`,
    /// which numbers the quotes 1...n densely), O(log n) on any size of store.
    /// Filtered: `FilteredPick`, random probes and, when the matches are few, a count of them.
    public func random<G: RandomNumberGenerator>(_ filter: QuoteFilter = QuoteFilter(),
                                                 using generator: inout G) throws(StoreError) -> Quote? {
        try database.storeOperation { () throws(DatabaseError) in
            if filter.isEmpty { return try unfiltered.quote(using: &generator) }
            let pick = FilteredPick(database: database)
            if let quote = try pick.quote(filter, using: &generator) { return quote }
            // No author by that exact name: try the words of it ("twain" finds Mark Twain).
            if filter.author != nil {
                return try pick.quote(filter, authorBySearch: true, using: &generator)
            }
            return nil
        }
    }

    /// Every quote that matches `filter`, as (id, source, upstream id): the candidates when
    /// random picks keep landing on quotes already seen.
    public func matchingKeys(_ filter: QuoteFilter) throws(StoreError) -> [(id: Int, source: String, upstreamID: String)] {
        try database.storeOperation { () throws(DatabaseError) in
            let clause = try clause(filter)
            let statement = try database.prepare("SELECT id, source, upstream_id FROM quotes WHERE \(clause.sql)")
            try statement.bind(clause.values)
            var keys: [(id: Int, source: String, upstreamID: String)] = []
            while try statement.step() { keys.append((statement.int(0), statement.string(1), statement.string(2))) }
            return keys
        }
    }

    /// How many quotes match `filter`.
    public func count(_ filter: QuoteFilter) throws(StoreError) -> Int {
        try database.storeOperation { () throws(DatabaseError) in
            let clause = try clause(filter)
            return try database.scalarInt("SELECT count(*) FROM quotes WHERE \(clause.sql)", clause.values) ?? 0
        }
    }

    /// One quote by its id.
    public func quote(id: Int) throws(StoreError) -> Quote? {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("SELECT \(Quote.columns) FROM quotes WHERE id = ?1")
            try statement.bind(id, at: 1)
            return try statement.step() ? Quote(row: statement) : nil
        }
    }

    /// The sources among `names` (every source, when nil) that hold a quote matching `filter`
    /// (its own source ignored; "custom" stands for every list): what a weighted pick may draw
    /// from. One indexed look per source for the first match, never a count of them.
    public func sourcesMatching(_ filter: QuoteFilter, among names: [String]?) throws(StoreError) -> Set<String> {
        try database.storeOperation { () throws(DatabaseError) in
            var candidates = names ?? []
            if names == nil {
                let statement = try database.prepare("SELECT name FROM sources ORDER BY name")
                while try statement.step() { candidates.append(statement.string(0)) }
            }
            var matching = Set<String>()
            for name in candidates where !matching.contains(name) {
                var narrowed = filter
                narrowed.source = name
                let clause = try clause(narrowed)
                if try database.scalarInt("SELECT 1 FROM quotes WHERE \(clause.sql) LIMIT 1", clause.values) != nil {
                    matching.insert(name)
                }
            }
            return matching
        }
    }

    /// The quote of the day: the same all day (the user's local day of `now`),
    /// another one tomorrow. A source that names its own quote of the day (happiness) is
    /// asked first; otherwise the day's hash is looked up in the content-hash
    /// index, so the choice survives quotes being added elsewhere in the store.
    public func today(now: Int, filter: QuoteFilter = QuoteFilter(),
                      skipping skipped: (Quote) -> Bool = { _ in false }) throws(StoreError) -> Quote? {
        try database.storeOperation { () throws(DatabaseError) in
            // An upstream's day follows UTC (happiness changes its quote at 00:00 UTC).
            if let source = filter.source, let quote = try dailyQuote(source: source, day: UnixTime.utcDay(now)), !skipped(quote) {
                return quote
            }
            let day = UnixTime.localDay(now)
            // A full-avalanche mix of the day number (SplitMix64's finalizer): consecutive
            // days land far apart in the hash index instead of on neighbouring quotes.
            var mixed = UInt64(bitPattern: Int64(day)) &+ 0x9E37_79B9_7F4A_7C15
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            let target = Int(truncatingIfNeeded: mixed ^ (mixed >> 31))
            let clause = try clause(filter)
            let first = clause.values.count + 1
            // From the day's point on in content-hash order, then from the start: a skipped quote
            // (one this user hid) gives way to the next of the same order, the same all day.
            for sql in [
                "SELECT \(Quote.columns) FROM quotes WHERE (\(clause.sql)) AND content_hash >= ?\(first) ORDER BY content_hash, id",
                "SELECT \(Quote.columns) FROM quotes WHERE (\(clause.sql)) AND content_hash < ?\(first) ORDER BY content_hash, id",
            ] {
                let statement = try database.prepare(sql)
                try statement.bind(clause.values + [.integer(target)])
                while try statement.step() {
                    let quote = Quote(row: statement)
                    if !skipped(quote) { return quote }
                }
            }
            return nil
        }
    }

    /// The quotes whose upstream id is `upstreamID` (of `source` only, when given): what a
    /// user's ID names (`quotectl like 17`, `like builtin:17`).
    public func quotes(upstreamID: String, source: String?) throws(StoreError) -> [Quote] {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare(
                "SELECT \(Quote.columns) FROM quotes WHERE upstream_id = ?1 AND (?2 IS NULL OR source = ?2) ORDER BY source LIMIT 16")
            try statement.bind(upstreamID, at: 1)
            try statement.bind(source, at: 2)
            var found: [Quote] = []
            while try statement.step() { found.append(Quote(row: statement)) }
            return found
        }
    }

    /// The upstream's own quote of the day, stored under its UTC date.
    private func dailyQuote(source: String, day: Int) throws(DatabaseError) -> Quote? {
        let statement = try database.prepare("""
            SELECT \(Quote.columns) FROM quotes
             WHERE id = (SELECT quote_id FROM daily_quotes WHERE source = ?1 AND day = ?2)
            """)
        try statement.bind(source, at: 1)
        try statement.bind(UnixTime.dateString(day: day), at: 2)
        return try statement.step() ? Quote(row: statement) : nil
    }

    private func count(matching query: String, cap: Int) throws(DatabaseError) -> Int {
        let statement = try database.prepare(
            "SELECT count(*) FROM (SELECT 1 FROM quotes_fts WHERE quotes_fts MATCH ?1 LIMIT ?2)")
        try statement.bind(query, at: 1)
        try statement.bind(cap, at: 2)
        return try statement.step() ? statement.int(0) : 0
    }

    /// What the user typed, planned against the index's vocabulary (see `SearchPlan`). The terms
    /// that start with a word are read from a temporary fts5vocab table of instances, one seek per
    /// term: its `row` kind would count each term's whole doclist on the way (docs/benchmarks.md),
    /// an instance is read alone.
    func searchPlan(_ text: String) throws(DatabaseError) -> SearchPlan {
        try database.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.quotes_term_instances USING fts5vocab(main, quotes_fts, instance)")
        // From a term on, below the first text past every term that starts with the prefix.
        let next = try database.prepare("""
            SELECT term FROM temp.quotes_term_instances WHERE term >= ?1 AND term < ?2 || char(1114111) LIMIT 1
            """)
        return try SearchPlan(text) { (prefix: String, limit: Int) throws(DatabaseError) -> [String] in
            var terms: [String] = []
            var from = prefix
            while terms.count < limit {
                next.reset()
                try next.bind(from, at: 1)
                try next.bind(prefix, at: 2)
                guard try next.step() else { break }
                let term = next.string(0)
                terms.append(term)
                // Just past this term: `>` would walk every instance of it first.
                from = term + "\u{1}"
            }
            return terms
        }
    }

    /// The quotes of `find`.
    public func search(_ text: String, limit: Int) throws(StoreError) -> [Quote] {
        try find(text, limit: limit).quotes
    }

    /// What a search found: the quotes shown, how many matched (counted up to `rankingLimit + 1`),
    /// and whether they are in bm25 order.
    public struct SearchResult {
        public let quotes: [Quote]
        /// Matches counted, at most `rankingLimit + 1` (more means "more than rankingLimit").
        public let matches: Int
        public let ranked: Bool
    }

    /// Past this many matches, bm25 over every one of them costs hundreds of milliseconds on a
    /// big store (docs/benchmarks.md); the first matches are
    /// shown unranked instead, and the caller says so.
    public static let rankingLimit = 5_000

    /// Full-text search: best matches first (bm25 over the prefix query, ties by id) when there
    /// are at most `rankingLimit`, otherwise the first `limit` in store order.
    public func find(_ text: String, limit: Int) throws(StoreError) -> SearchResult {
        try database.storeOperation { () throws(DatabaseError) in
            let plan = try searchPlan(text)
            let matches = try count(matching: plan.query, cap: Self.rankingLimit + 1)
            guard matches > 0 else { return SearchResult(quotes: [], matches: 0, ranked: true) }
            let ranked = matches <= Self.rankingLimit
            let statement: Statement
            if ranked {
                try FullTextRank.register(on: database)
                statement = try database.prepare("""
                    SELECT \(Quote.Column.sql(table: "q")) FROM quotes_fts JOIN quotes q ON q.id = quotes_fts.rowid
                     WHERE quotes_fts MATCH ?1 ORDER BY \(FullTextRank.functionName)(quotes_fts, ?3), q.id LIMIT ?2
                    """)
                try statement.bind(FullTextRank.weights(try inverseDocumentFrequencies(plan)), at: 3)
            } else {
                statement = try database.prepare("""
                    SELECT \(Quote.Column.sql(table: "q")) FROM quotes_fts JOIN quotes q ON q.id = quotes_fts.rowid
                     WHERE quotes_fts MATCH ?1 LIMIT ?2
                    """)
            }
            try statement.bind(plan.query, at: 1)
            try statement.bind(limit, at: 2)
            var results: [Quote] = []
            while try statement.step() { results.append(Quote(row: statement)) }
            return SearchResult(quotes: results, matches: matches, ranked: ranked)
        }
    }

    /// bm25's IDF of each group of `plan`: the rows it matches, counted up to half the index's
    /// rows (from there bm25 clamps the IDF, so a word in every quote costs half a count), by FTS5
    /// itself (`quoted_group_rows`, called on one row the query matched).
    /// One group alone needs no count: its IDF scales every score alike, so any positive one
    /// ranks the rows the same.
    private func inverseDocumentFrequencies(_ plan: SearchPlan) throws(DatabaseError) -> [(phrases: Int, idf: Double)] {
        if plan.groups.count == 1 { return [(plan.groups[0].phrases.count, 1.0)] }
        let rows = try FullTextRank.rowCount(of: database)
        let groupRows = try database.prepare("""
            SELECT \(FullTextRank.hitsFunctionName)(quotes_fts, ?2, ?3, ?4, (SELECT coalesce(min(id), 0) FROM quotes))
              FROM quotes_fts WHERE quotes_fts MATCH ?1 LIMIT 1
            """)
        try groupRows.bind(plan.query, at: 1)
        try groupRows.bind(FullTextRank.halfOfRows(rows), at: 4)
        var groups: [(phrases: Int, idf: Double)] = []
        // A word typed twice is counted once: a query repeating a common word costs one count.
        var counted: [String: Int] = [:]
        var first = 0
        for group in plan.groups {
            let hits: Int
            if let known = counted[group.query] {
                hits = known
            } else {
                groupRows.resetKeepingBindings()
                try groupRows.bind(first, at: 2)
                try groupRows.bind(group.phrases.count, at: 3)
                hits = try groupRows.step() ? groupRows.int(0) : 0
                counted[group.query] = hits
            }
            first += group.phrases.count
            groups.append((group.phrases.count, FullTextRank.inverseDocumentFrequency(hits: hits, rows: rows)))
        }
        return groups
    }

    /// Every quote (of one source, or `custom` for all lists), in store order, for export.
    public func forEach(source: String?, _ body: (Quote) -> Void) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
            let clause = QuoteFilter(source: source).whereClause()
            let statement = try database.prepare("SELECT \(Quote.columns) FROM quotes WHERE \(clause.sql) ORDER BY id")
            try statement.bind(clause.values)
            while try statement.step() { body(Quote(row: statement)) }
        }
    }
}
