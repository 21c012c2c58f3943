import Testing
@testable import QuoteHealth
@testable import QuoteModels
@testable import QuoteStore
import TestSupport

/// What migration 0011 keeps per source: the counters survive a reopen (and a daemon's
/// restart), the run of failures has a start, and the health reading sees it all.
@Suite struct SyncMetricsTests {
    let folder = TemporaryFolder()
    var path: String { folder.file("q.db") }
    let scope = HealthScope(sources: [HealthScope.Source(name: "custom.a", intervalSeconds: 3_600)])

    func record(ok: Bool, at time: Int, bytes: Int = 1_000, changed: Int = 2) throws {
        let store = try Store(path: path, access: .write)
        let repository = SyncStateRepository(database: store.database)
        let outcome = SyncStateRepository.Outcome(ok: ok, httpStatus: ok ? 200 : 503, counts: ChangeCounts(inserted: changed),
                                                  message: ok ? "fine" : "HTTP 503", started: time, finished: time + 1,
                                                  fetchedBytes: bytes, durationMilliseconds: 1_500)
        try store.database.transaction { () throws(StoreError) in
            if ok {
                try repository.recordSuccess(source: "custom.a", url: "https://example.org/a", validators: [], outcome: outcome,
                                             nextDue: time + 3_600)
            } else {
                try repository.recordFailure(source: "custom.a", url: "https://example.org/a", outcome: outcome, retryAfter: nil,
                                             nextDue: time + 600)
            }
        }
    }

    func health() throws -> SourceHealth {
        let store = try Store(path: path, access: .read)
        return try #require(try scope.read(store.health.rows).sources.first)
    }

    @Test func countersSurviveAReopenAndTheRunOfFailuresHasAStart() throws {
        try record(ok: true, at: 1_000)
        try record(ok: false, at: 2_000)
        try record(ok: false, at: 3_000)
        var read = try health()
        #expect(read.failingSince == 2_000, "the first failure of the run, kept by the second")
        #expect(read.consecutiveFailures == 2)
        #expect(read.syncsOKTotal == 1 && read.syncsFailedTotal == 2)
        #expect(read.fetchedBytesTotal == 3_000)
        #expect(read.rowsChangedTotal == 2, "a failure changes no row")
        #expect(read.lastDurationMilliseconds == 1_500)
        try record(ok: true, at: 4_000)
        read = try health()
        #expect(read.failingSince == nil)
        #expect(read.syncsOKTotal == 2 && read.fetchedBytesTotal == 4_000 && read.rowsChangedTotal == 4)
        #expect(read.rows == [TableRows(table: "quotes", count: 0)])
    }

    @Test func aCounterStopsAtTheLargestIntegerInsteadOfTurningIntoAFloat() throws {
        try record(ok: true, at: 1_000, bytes: Int.max - 10)
        try record(ok: true, at: 2_000, bytes: 1_000)
        #expect(try health().fetchedBytesTotal == Int.max)
    }

    @Test func aNeverSyncedSourceAndAnEmptyStoreReadAsNothingKnown() throws {
        let read = try health()
        #expect(read.lastAttempt == nil && read.lastSuccess == nil && read.syncsOKTotal == 0)
        #expect(read.intervalSeconds == 3_600)
        let text = PrometheusText.render(MetricsSnapshot(version: "1", sources: [read]))
        #expect(text.contains("quoted_source_up{source=\"custom.a\"} 0\n"))
        #expect(!text.contains("quoted_source_last_attempt_timestamp_seconds"))
    }

    @Test func aStoreFailingWhenUpgradedGetsItsRunsStartFromTheLog() throws {
        let old = try Database(path: path, mode: .readWriteCreate)
        try Migrator(migrations: Array(Migrator.embedded.migrations.prefix(10))).migrate(old)
        try old.execute("INSERT INTO sources (name, kind, created_at) VALUES ('custom.a', 'custom', 1)")
        try old.execute("""
            INSERT INTO sync_state (source, last_attempt, last_success, consecutive_failures) VALUES ('custom.a', 300, 100, 2)
            """)
        for (time, ok) in [(100, 1), (200, 0), (300, 0)] {
            try old.execute("INSERT INTO sync_log (source, started_at, finished_at, ok, inserted) VALUES ('custom.a', ?1, ?1, ?2, 5)",
                            [.integer(time), .integer(ok)])
        }
        try Migrator.embedded.migrate(old)
        let read = try health()
        #expect(read.failingSince == 200)
        #expect(read.syncsOKTotal == 1 && read.syncsFailedTotal == 2 && read.rowsChangedTotal == 15)
    }
}
