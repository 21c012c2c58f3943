import QuoteBase
import QuoteModels
import QuoteText
/// What the store knows of one source: how much it holds and how its syncs went.
public struct SourceStatus: Sendable {
    public var name: String
    public var quotes: Int
    /// Other rows the source brought: characters, deaths, markets, observations.
    public var otherRows: [(label: String, count: Int)]
    /// Whether quoted syncs it: as the store last recorded the configuration (a list removed
    /// from it is not), then as `quotectl status` reads the configuration itself. Never a
    /// disabled source or a list only imported; always the built-in set, which needs no sync.
    public var configured: Bool
    /// The configuration names it and turns it off.
    public var disabled = false
    /// A custom list `quotectl import` made, which no sync has fetched (it has no URL).
    public var imported = false
    public var lastAttempt: Int?
    public var lastSuccess: Int?
    public var nextDue: Int?
    public var consecutiveFailures: Int
    public var lastError: String?
    public var lastHTTPStatus: Int?
    public var retryAfter: Int?
    public var lastSummary: String?
    /// For a sampled source (breakingbad): the estimated size of the upstream's pool.
    public var poolEstimate: PoolEstimate?
    /// On a spoke: the source came from the hub's feed (and the feed was written then).
    public var fromHub = false
    public var feedGenerated: Int?
    /// Until when the feed's applied manifest is valid: past it the source is stale, whatever a 304 says.
    public var feedValidUntil: Int?

    public func json(now: Int) -> String {
        var object = JSONObjectBuilder()
        // Every line of `status --json` says what it describes: a source, or the daemon.
        object.add("kind", "source")
        object.add("source", name)
        object.add("quotes", quotes)
        for row in otherRows { object.add(row.label, row.count) }
        object.add("configured", configured)
        if disabled { object.add("disabled", true) }
        if imported { object.add("imported", true) }
        object.add("last_attempt", lastAttempt)
        object.add("last_success", lastSuccess)
        object.add("next_due", nextDue)
        object.add("consecutive_failures", consecutiveFailures)
        object.add("last_error", lastError)
        object.add("last_http_status", lastHTTPStatus)
        object.add("retry_after", retryAfter)
        object.add("last_summary", lastSummary)
        if fromHub {
            object.add("from_hub", true)
            object.add("feed_generated", feedGenerated)
            object.add("feed_valid_until", feedValidUntil)
        }
        if let poolEstimate {
            object.add("pool_observed", poolEstimate.observed)
            object.add("pool_estimated", Int(poolEstimate.estimated.rounded()))
        }
        return object.result
    }
}

public struct StatusQuery {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    /// Every fixed source (synced or not) and every custom list the store knows.
    public func sources() throws(StoreError) -> [SourceStatus] {
        let pool = try poolEstimate(of: SourceName.breakingbad)
        let records = try SyncStateRepository(database: database).records()
        return try database.storeOperation { () throws(DatabaseError) in
            let quoteCounts = try quotesPerSource()

            var names = SourceName.fixed
            let known = try database.prepare("SELECT name FROM sources WHERE kind = 'custom' ORDER BY name")
            while try known.step() { names.append(known.string(0)) }

            let source = try database.prepare("""
                SELECT s.configured, coalesce(s.kind = 'custom' AND s.url IS NULL, 0)
                  FROM (SELECT ?1 AS name) n LEFT JOIN sources s ON s.name = n.name
                """)
            return try names.map { name throws(DatabaseError) in
                source.reset()
                try source.bind(name, at: 1)
                _ = try source.step()
                let other = try SourceTables.otherRows(of: name, in: database).map { (label: $0.table, count: $0.count) }
                let imported = source.int(1) == 1
                let record = records[name]
                return SourceStatus(
                    name: name, quotes: quoteCounts[name] ?? 0, otherRows: other,
                    configured: !imported && (source.optionalInt(0).map { $0 != 0 } ?? true), imported: imported,
                    lastAttempt: record?.lastAttempt, lastSuccess: record?.lastSuccess, nextDue: record?.nextDue,
                    consecutiveFailures: record?.consecutiveFailures ?? 0, lastError: record?.lastError,
                    lastHTTPStatus: record?.lastHTTPStatus, retryAfter: record?.retryAfter,
                    lastSummary: record?.lastSummary, poolEstimate: name == SourceName.breakingbad ? pool : nil)
            }
        }
    }

    /// The Chao1 estimate of a sampled source's pool: per production, then added up
    /// (each production is its own pool). Nil when nothing was sampled.
    public func poolEstimate(of source: String) throws(StoreError) -> PoolEstimate? {
        try database.storeOperation { () throws(DatabaseError) in
            let rows = try database.prepare("""
                SELECT production, count(*), sum(draws = 1), sum(draws = 2), sum(draws)
                  FROM sampling_counts WHERE source = ?1 GROUP BY production
                """)
            try rows.bind(source, at: 1)
            var observed = 0, estimated = 0.0, draws = 0
            while try rows.step() {
                let estimate = PoolEstimate(observed: rows.int(1), singletons: rows.int(2), doubletons: rows.int(3), draws: rows.int(4))
                observed += estimate.observed
                estimated += estimate.estimated
                draws += estimate.draws
            }
            guard observed > 0 else { return nil }
            // Stored as an equivalent: the added-up estimate, with the observed count and draws.
            return PoolEstimate(observed: observed, estimatedOverride: estimated, draws: draws)
        }
    }

    /// Whether the store knows `source` at all.
    public func hasSource(_ source: String) throws(StoreError) -> Bool {
        try database.storeOperation { () throws(DatabaseError) in
            try database.scalarInt("SELECT count(*) FROM sources WHERE name = ?1", [.text(source)]) ?? 0 > 0
        }
    }

    /// Every source name the store knows (for shell completion: no network, one query).
    public func sourceNames() throws(StoreError) -> [String] {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("SELECT name FROM sources ORDER BY name")
            var names: [String] = []
            while try statement.step() { names.append(statement.string(0)) }
            return names
        }
    }

    /// Quotes per source: the counts the writers keep when they add up to max(pick) (every quote
    /// has a pick, 1...count, kept dense by the triggers: one index probe), else counted.
    func quotesPerSource() throws(DatabaseError) -> [String: Int] {
        var kept: [String: Int] = [:]
        var known = true
        let stored = try database.prepare("SELECT name, quote_count FROM sources")
        while try stored.step() {
            guard let count = stored.optionalInt(1) else { known = false; break }
            if count > 0 { kept[stored.string(0)] = count }
        }
        let total = try database.scalarInt("SELECT max(pick) FROM quotes") ?? 0
        if known, kept.values.reduce(0, +) == total { return kept }
        var counted: [String: Int] = [:]
        let counts = try database.prepare("SELECT source, count(*) FROM quotes GROUP BY source")
        while try counts.step() { counted[counts.string(0)] = counts.int(1) }
        return counted
    }
}
