import QuoteModels
/// Everything about how a source's syncs went: `sync_state` (when it is next due, its
/// failures, the upstream's block), `http_validators` (ETag, Last-Modified, body hash per
/// URL) and `sync_log`. The only code that reads or writes those tables.
public struct SyncStateRepository {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    /// The ETag, Last-Modified and SHA-256 of what was applied from one (source, URL).
    public struct Validators: Sendable, Equatable {
        public var url: String
        public var etag: String?
        public var lastModified: String?
        public var bodySHA256: String?

        public init(url: String, etag: String? = nil, lastModified: String? = nil, bodySHA256: String? = nil) {
            self.url = url
            self.etag = etag
            self.lastModified = lastModified
            self.bodySHA256 = bodySHA256
        }
    }

    /// What one sync did, for the log.
    public struct Outcome: Sendable {
        public var ok: Bool
        public var httpStatus: Int?
        public var counts: ChangeCounts
        public var message: String
        public var started: Int
        public var finished: Int
        /// The response bodies the sync received, for the store's running total.
        public var fetchedBytes: Int
        /// How long the sync took, on the monotonic clock.
        public var durationMilliseconds: Int?

        public init(ok: Bool, httpStatus: Int?, counts: ChangeCounts = ChangeCounts(), message: String, started: Int, finished: Int,
                    fetchedBytes: Int = 0, durationMilliseconds: Int? = nil) {
            self.ok = ok
            self.httpStatus = httpStatus
            self.counts = counts
            self.message = message
            self.started = started
            self.finished = finished
            // Counters only grow: a negative figure from a caller adds nothing.
            self.fetchedBytes = max(0, fetchedBytes)
            self.durationMilliseconds = durationMilliseconds.map { max(0, $0) }
        }
    }

    /// What the scheduler needs of each source: when it is due, and for which URL that was decided.
    public struct Entry: Sendable, Equatable {
        public var source: String
        public var nextDue: Int?
        public var consecutiveFailures: Int
        public var lastSuccess: Int?
        /// The URL the source last synced from (as stored: without query or credentials).
        public var url: String?
        /// The upstream's block, when it asked to wait (Retry-After, an Upbit 418).
        public var retryAfter: Int?

        /// Whether the next due time is the upstream's block rather than our own schedule.
        public var isBlock: Bool { retryAfter != nil && retryAfter == nextDue }
    }

    // MARK: Reading

    public func validators(source: String, url: String) throws(StoreError) -> Validators? {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare(
                "SELECT etag, last_modified, body_sha256 FROM http_validators WHERE source = ?1 AND url = ?2")
            try statement.bind([.text(source), .text(url)])
            guard try statement.step() else { return nil }
            return Validators(url: url, etag: statement.optionalString(0), lastModified: statement.optionalString(1),
                              bodySHA256: statement.optionalString(2))
        }
    }

    /// The time before which the upstream asked not to be contacted — only if it was
    /// recorded for one of `urls` (a block belongs to the URL it was given for).
    public func block(source: String, urls: [String]) throws(StoreError) -> Int? {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("""
                SELECT state.retry_after, sources.url FROM sync_state AS state JOIN sources ON sources.name = state.source
                 WHERE state.source = ?1
                """)
            try statement.bind([.text(source)])
            guard try statement.step(), let until = statement.optionalInt(0), let url = statement.optionalString(1),
                  urls.contains(url) else { return nil }
            return until
        }
    }

    public func consecutiveFailures(source: String) throws(StoreError) -> Int {
        try database.storeOperation { () throws(DatabaseError) in
            try database.scalarInt("SELECT consecutive_failures FROM sync_state WHERE source = ?1", [.text(source)]) ?? 0
        }
    }

    /// Every source's sync record, by name: the one reading of `sync_state` that status, the
    /// health reading and a hub's feed share.
    public func records() throws(StoreError) -> [String: SyncRecord] {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("""
                SELECT source, last_attempt, last_success, next_due, consecutive_failures, failing_since, last_error,
                       last_http_status, retry_after, last_summary, last_duration_ms, fetched_bytes_total,
                       rows_changed_total, syncs_ok_total, syncs_failed_total
                  FROM sync_state
                """)
            var records: [String: SyncRecord] = [:]
            while try statement.step() {
                var record = SyncRecord()
                record.lastAttempt = statement.optionalInt(1)
                record.lastSuccess = statement.optionalInt(2)
                record.nextDue = statement.optionalInt(3)
                record.consecutiveFailures = statement.int(4)
                record.failingSince = statement.optionalInt(5)
                record.lastError = statement.optionalString(6)
                record.lastHTTPStatus = statement.optionalInt(7)
                record.retryAfter = statement.optionalInt(8)
                record.lastSummary = statement.optionalString(9)
                record.lastDurationMilliseconds = statement.optionalInt(10)
                record.fetchedBytesTotal = statement.int(11)
                record.rowsChangedTotal = statement.int(12)
                record.syncsOKTotal = statement.int(13)
                record.syncsFailedTotal = statement.int(14)
                records[statement.string(0)] = record
            }
            return records
        }
    }

    /// Every source's schedule, as the last runs left it.
    public func entries() throws(StoreError) -> [Entry] {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("""
                SELECT state.source, state.next_due, state.consecutive_failures, state.last_success, sources.url, state.retry_after
                  FROM sync_state AS state LEFT JOIN sources ON sources.name = state.source
                """)
            var entries: [Entry] = []
            while try statement.step() {
                entries.append(Entry(source: statement.string(0), nextDue: statement.optionalInt(1),
                                     consecutiveFailures: statement.int(2), lastSuccess: statement.optionalInt(3),
                                     url: statement.optionalString(4), retryAfter: statement.optionalInt(5)))
            }
            return entries
        }
    }

    // MARK: Writing (inside the caller's transaction)

    public func recordSuccess(source: String, url: String, validators: [Validators], outcome: Outcome, nextDue: Int) throws(StoreError) {
        try QuoteWriter(database: database).ensureSource(source, url: url, now: outcome.started)
        try database.storeOperation { () throws(DatabaseError) in
            let save = try database.prepare("""
                INSERT INTO http_validators (url, source, etag, last_modified, body_sha256, updated_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                ON CONFLICT (source, url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
                    body_sha256 = excluded.body_sha256, updated_at = excluded.updated_at
                 WHERE etag IS NOT excluded.etag OR last_modified IS NOT excluded.last_modified
                    OR body_sha256 IS NOT excluded.body_sha256
                """)
            for validator in validators {
                try save.execute([.text(validator.url), .text(source), text(validator.etag), text(validator.lastModified),
                              text(validator.bodySHA256), .integer(outcome.started)])
            }
            try database.execute("""
                INSERT INTO sync_state (source, last_attempt, last_success, next_due, consecutive_failures, last_error,
                                        last_http_status, retry_after, last_summary, failing_since, last_duration_ms,
                                        fetched_bytes_total, rows_changed_total, syncs_ok_total)
                VALUES (?1, ?2, ?2, ?3, 0, NULL, ?4, NULL, ?5, NULL, ?6, ?7, ?8, 1)
                ON CONFLICT (source) DO UPDATE SET last_attempt = ?2, last_success = ?2, next_due = ?3,
                    consecutive_failures = 0, last_error = NULL, last_http_status = ?4, retry_after = NULL, last_summary = ?5,
                    failing_since = NULL, last_duration_ms = ?6, \(Self.adding("fetched_bytes_total", "?7")),
                    \(Self.adding("rows_changed_total", "?8")), \(Self.adding("syncs_ok_total", "1"))
                """, [.text(source), .integer(outcome.started), .integer(nextDue), integer(outcome.httpStatus), .text(outcome.message),
                      integer(outcome.durationMilliseconds), .integer(outcome.fetchedBytes), .integer(max(0, outcome.counts.changed))])
            try log(source: source, outcome)
        }
    }

    /// An upstream's failure: one more in a row, and the block it asked for (if any).
    public func recordFailure(source: String, url: String, outcome: Outcome, retryAfter: Int?, nextDue: Int) throws(StoreError) {
        try QuoteWriter(database: database).ensureSource(source, url: url, now: outcome.started)
        try database.storeOperation { () throws(DatabaseError) in
            try database.execute("""
                INSERT INTO sync_state (source, last_attempt, next_due, consecutive_failures, last_error, last_http_status, retry_after,
                                        failing_since, last_duration_ms, fetched_bytes_total, syncs_failed_total)
                VALUES (?1, ?2, ?3, 1, ?4, ?5, ?6, ?2, ?7, ?8, 1)
                ON CONFLICT (source) DO UPDATE SET last_attempt = ?2, next_due = ?3,
                    consecutive_failures = consecutive_failures + 1, last_error = ?4, last_http_status = ?5, retry_after = ?6,
                    failing_since = CASE WHEN consecutive_failures = 0 OR failing_since IS NULL THEN ?2 ELSE failing_since END,
                    last_duration_ms = ?7, \(Self.adding("fetched_bytes_total", "?8")), \(Self.adding("syncs_failed_total", "1"))
                """, [.text(source), .integer(outcome.started), .integer(nextDue), .text(outcome.message),
                      integer(outcome.httpStatus), integer(retryAfter), integer(outcome.durationMilliseconds),
                      .integer(outcome.fetchedBytes)])
            try log(source: source, outcome)
        }
    }

    /// A failure of the store itself: logged and rescheduled, but the upstream keeps its
    /// failure count, backoff and any block it asked for.
    public func recordLocalFailure(source: String, url: String, outcome: Outcome, nextDue: Int) throws(StoreError) {
        try QuoteWriter(database: database).ensureSource(source, url: url, now: outcome.started)
        try database.storeOperation { () throws(DatabaseError) in
            try database.execute("""
                INSERT INTO sync_state (source, last_attempt, next_due, consecutive_failures, last_error, last_duration_ms,
                                        fetched_bytes_total, syncs_failed_total)
                VALUES (?1, ?2, ?3, 0, ?4, ?5, ?6, 1)
                ON CONFLICT (source) DO UPDATE SET last_attempt = ?2, next_due = ?3, last_error = ?4, last_duration_ms = ?5,
                    \(Self.adding("fetched_bytes_total", "?6")), \(Self.adding("syncs_failed_total", "1"))
                """, [.text(source), .integer(outcome.started), .integer(nextDue), .text(outcome.message),
                      integer(outcome.durationMilliseconds), .integer(outcome.fetchedBytes)])
            try log(source: source, outcome)
        }
    }

    /// The daemon's own decision of when a source is next due (it schedules; a sync reports).
    public func setNextDue(source: String, _ time: Int) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
            try database.execute("UPDATE sync_state SET next_due = ?2 WHERE source = ?1", [.text(source), .integer(time)])
        }
    }

    /// Shortens a block recorded under a wrong clock to `until` (and the due time with it), so
    /// that it ends: clamped only when read, it would move ahead with every reading.
    public func shortenBlock(source: String, until: Int) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
            try database.execute("UPDATE sync_state SET retry_after = ?2, next_due = min(next_due, ?2) WHERE source = ?1 AND retry_after > ?2",
                             [.text(source), .integer(until)])
        }
    }

    private func log(source: String, _ outcome: Outcome) throws(DatabaseError) {
        try database.execute("""
            INSERT INTO sync_log (source, started_at, finished_at, ok, http_status, inserted, updated, removed, skipped, message)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
            """, [.text(source), .integer(outcome.started), .integer(outcome.finished), .integer(outcome.ok ? 1 : 0),
                  integer(outcome.httpStatus), .integer(outcome.counts.inserted), .integer(outcome.counts.updated),
                  .integer(outcome.counts.removed), .integer(outcome.counts.skipped), .text(outcome.message)])
        // The log is for reading, not an archive: keep the last 1,000 runs per source.
        try database.execute("""
            DELETE FROM sync_log WHERE source = ?1 AND id <= (SELECT id FROM sync_log WHERE source = ?1 ORDER BY id DESC LIMIT 1 OFFSET 1000)
            """, [.text(source)])
    }

    /// `column = column + amount`, stopping at SQLite's largest integer (past it SQLite would turn the sum into a float).
    static func adding(_ column: String, _ amount: String) -> String {
        "\(column) = min(\(column), 9223372036854775807 - \(amount)) + \(amount)"
    }

    private func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
    private func integer(_ value: Int?) -> SQLValue { value.map(SQLValue.integer) ?? .null }
}
