import QuoteHealth
import QuoteModels

/// What `quotectl check`, the metrics and the daemon's status line read: each source's sync
/// state and rows stored, and the feed a spoke follows. It never counts quotes: they come from
/// the counts the writers keep (`sources.quote_count`); only the small tables are counted.
public struct HealthQuery {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// The sources `scope` names (on a spoke: given those the hub's feed brought), in its order,
    /// and the feed a spoke follows.
    public func snapshot(_ scope: HealthScope) throws(StoreError) -> (sources: [SourceHealth], spokeFeed: FeedHealth?) {
        let feed = try spokeFeed(scope)
        let fed = try scope.manifestURL.map { url throws(StoreError) in
            try FeedStateRepository(database: database).fedSources(manifestURL: url).map(\.name)
        } ?? []
        // Named before the first manifest is applied when the configuration pins the feed.
        let feedName = feed?.name ?? scope.feedName
        let sources = try database.storeOperation { () throws(DatabaseError) in
            let quotes = try StatusQuery(database: database).quotesPerSource()
            let state = try database.prepare("""
                SELECT last_attempt, last_success, next_due, consecutive_failures, last_error, last_http_status, failing_since,
                       last_duration_ms, fetched_bytes_total, rows_changed_total, syncs_ok_total, syncs_failed_total
                  FROM sync_state WHERE source = ?1
                """)
            return try scope.sources(fed: fed).map { scoped throws(DatabaseError) in
                var health = SourceHealth(name: scoped.name)
                health.intervalSeconds = scoped.intervalSeconds
                health.rows = try rows(of: scoped.name, quotes: quotes[scoped.name] ?? 0)
                if scoped.fromFeed {
                    health.feed = feedName
                    health.feedValidUntil = feed?.validUntil
                }
                state.reset()
                try state.bind(scoped.name, at: 1)
                guard try state.step() else { return health }
                read(state, into: &health)
                return health
            }
        }
        return (sources, feed)
    }

    private func read(_ state: Statement, into health: inout SourceHealth) {
        health.lastAttempt = state.optionalInt(0)
        health.lastSuccess = state.optionalInt(1)
        health.nextDue = state.optionalInt(2)
        health.consecutiveFailures = state.int(3)
        health.lastError = state.optionalString(4)
        health.lastHTTPStatus = state.optionalInt(5)
        health.failingSince = state.optionalInt(6)
        health.lastDurationMilliseconds = state.optionalInt(7)
        health.fetchedBytesTotal = state.int(8)
        health.rowsChangedTotal = state.int(9)
        health.syncsOKTotal = state.int(10)
        health.syncsFailedTotal = state.int(11)
    }

    /// The tables a source fills: quotes (counted by the writers), then the others.
    private func rows(of source: String, quotes: Int) throws(DatabaseError) -> [SourceHealth.Rows] {
        let quoteRows = SourceTables.bringsQuotes(source) ? [SourceHealth.Rows(table: "quotes", count: quotes)] : []
        return quoteRows + (try SourceTables.otherRows(of: source, in: database))
    }

    /// The manifest a spoke applied: of the feed the configuration pins, else the newest it checked.
    private func spokeFeed(_ scope: HealthScope) throws(StoreError) -> FeedHealth? {
        guard scope.manifestURL != nil else { return nil }
        let trusted = FeedTrustRepository(database: database)
        let trust: FeedTrustRepository.Trust?
        if let name = scope.feedName {
            trust = try trusted.trust(name: name)
        } else {
            trust = try trusted.feeds().first
        }
        return trust.map { FeedHealth(name: $0.name, serial: $0.serial, generated: $0.generated, validUntil: $0.validUntil,
                                      checkedAt: $0.checkedAt) }
    }
}
