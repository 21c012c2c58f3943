import QuoteBase
import QuoteConfig
import QuoteStore

/// Writes sync_state, http_validators and sync_log. Called inside the engine's transaction.
struct StateRecorder {
    let database: Database

    func recordSuccess(source: String, url: String, validators: [Validators], httpStatus: Int?, counts: ChangeCounts,
                       summary: String, nextDue: Int, now: Int, finished: Int) throws {
        try QuoteWriter(database: database).ensureSource(source, url: URLText.redacted(url), now: now)
        let save = try database.prepare("""
            INSERT INTO http_validators (url, source, etag, last_modified, body_sha256, updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT (source, url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
                body_sha256 = excluded.body_sha256, updated_at = excluded.updated_at
             WHERE etag IS NOT excluded.etag OR last_modified IS NOT excluded.last_modified
                OR body_sha256 IS NOT excluded.body_sha256
            """)
        for validator in validators {
            try save.run([.text(validator.url), .text(source), text(validator.etag), text(validator.lastModified),
                          text(validator.bodySHA256), .integer(now)])
        }
        try database.run("""
            INSERT INTO sync_state (source, last_attempt, last_success, next_due, consecutive_failures, last_error,
                                    last_http_status, retry_after, last_summary)
            VALUES (?1, ?2, ?2, ?3, 0, NULL, ?4, NULL, ?5)
            ON CONFLICT (source) DO UPDATE SET last_attempt = ?2, last_success = ?2, next_due = ?3,
                consecutive_failures = 0, last_error = NULL, last_http_status = ?4, retry_after = NULL, last_summary = ?5
            """, [.text(source), .integer(now), .integer(nextDue), httpStatus.map(SQLValue.integer) ?? .null, .text(summary)])
        try log(source: source, now: now, finished: finished, ok: true, httpStatus: httpStatus, counts: counts, message: summary)
    }

    func recordFailure(source: String, url: String, failure: SourceFailure, nextDue: Int, now: Int, finished: Int) throws {
        try QuoteWriter(database: database).ensureSource(source, url: URLText.redacted(url), now: now)
        try database.run("""
            INSERT INTO sync_state (source, last_attempt, next_due, consecutive_failures, last_error, last_http_status, retry_after)
            VALUES (?1, ?2, ?3, 1, ?4, ?5, ?6)
            ON CONFLICT (source) DO UPDATE SET last_attempt = ?2, next_due = ?3,
                consecutive_failures = consecutive_failures + 1, last_error = ?4, last_http_status = ?5, retry_after = ?6
            """, [.text(source), .integer(now), .integer(nextDue), .text(failure.message),
                  failure.httpStatus.map(SQLValue.integer) ?? .null, failure.retryAfter.map(SQLValue.integer) ?? .null])
        try log(source: source, now: now, finished: finished, ok: false, httpStatus: failure.httpStatus,
                counts: ChangeCounts(), message: failure.message)
    }

    /// A failure of the store itself: logged and rescheduled, but the upstream keeps its
    /// failure count, backoff and any block it asked for.
    func recordLocalFailure(source: String, url: String, message: String, nextDue: Int, now: Int, finished: Int) throws {
        try QuoteWriter(database: database).ensureSource(source, url: URLText.redacted(url), now: now)
        try database.run("""
            INSERT INTO sync_state (source, last_attempt, next_due, consecutive_failures, last_error)
            VALUES (?1, ?2, ?3, 0, ?4)
            ON CONFLICT (source) DO UPDATE SET last_attempt = ?2, next_due = ?3, last_error = ?4
            """, [.text(source), .integer(now), .integer(nextDue), .text(message)])
        try log(source: source, now: now, finished: finished, ok: false, httpStatus: nil, counts: ChangeCounts(), message: message)
    }

    private func log(source: String, now: Int, finished: Int, ok: Bool, httpStatus: Int?, counts: ChangeCounts, message: String) throws {
        try database.run("""
            INSERT INTO sync_log (source, started_at, finished_at, ok, http_status, inserted, updated, removed, skipped, message)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
            """, [.text(source), .integer(now), .integer(finished), .integer(ok ? 1 : 0), httpStatus.map(SQLValue.integer) ?? .null,
                  .integer(counts.inserted), .integer(counts.updated), .integer(counts.removed), .integer(counts.skipped),
                  .text(message)])
        // The log is for reading, not an archive: keep the last 1,000 runs per source.
        try database.run("""
            DELETE FROM sync_log WHERE source = ?1 AND id <= (SELECT id FROM sync_log WHERE source = ?1 ORDER BY id DESC LIMIT 1 OFFSET 1000)
            """, [.text(source)])
    }

    private func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
}
