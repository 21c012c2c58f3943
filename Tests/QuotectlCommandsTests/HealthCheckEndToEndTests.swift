import Foundation
import QuoteBase
import QuoteModels
import QuoteStore
import Testing
import TestSupport

/// `quotectl check` as Nagios runs it (its exit status is the verdict; the command run in-process)
/// and `quotectl status --format prometheus`, over stores whose sync state each test writes as the
/// engine would.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct HealthCheckEndToEndTests {
    let folder = TemporaryFolder("health-check")
    var quotectl: InProcessQuotectl
    let now = UnixTime.now()
    var storePath: String { folder.file("q.db") }

    init() {
        quotectl = InProcessQuotectl(home: folder.path)
    }

    /// A configuration watching one list, `custom.a`, hourly.
    func configure(_ extra: String = "") -> String {
        folder.write("quoted.conf", "[store]\npath = \(storePath)\n[source.custom.a]\nurl = https://example.org/a.json\ninterval = 1h\n"
                     + BinaryRunner.fixedSourcesOff + "\n" + extra)
    }

    func record(_ body: (SyncStateRepository) throws(StoreError) -> Void) throws {
        let store = try Store(path: storePath, access: .write)
        try store.write { (transaction) throws(StoreError) in try body(transaction.syncState) }
    }

    func success(_ source: String = "custom.a", at time: Int, url: String = "https://example.org/a.json",
                 counts: ChangeCounts = ChangeCounts(inserted: 3)) throws {
        try record { (state) throws(StoreError) in
            try state.recordSuccess(source: source, url: url, validators: [],
                                    outcome: .init(ok: true, httpStatus: 200, counts: counts, message: "3 quotes", started: time,
                                                   finished: time, fetchedBytes: 1_234, durationMilliseconds: 250),
                                    nextDue: time + 3_600)
        }
    }

    func failure(at time: Int, status: Int = 503) throws {
        try record { (state) throws(StoreError) in
            try state.recordFailure(source: "custom.a", url: "https://example.org/a.json",
                                    outcome: .init(ok: false, httpStatus: status, message: "HTTP \(status)", started: time, finished: time,
                                                   fetchedBytes: 100),
                                    retryAfter: nil, nextDue: time + 600)
        }
    }

    func check(_ arguments: [String] = []) throws -> InProcessQuotectl.Result {
        try quotectl.run(["--config", configure(), "check"] + arguments)
    }

    @Test func freshIsOK() throws {
        try success(at: now - 60)
        let result = try check()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "QUOTED OK - 1 of 1 sources fresh | fresh=1;;; stale=0;;; failing=0;;;\n")
    }

    @Test func pastTwoIntervalsIsAStaleWarning() throws {
        try success(at: now - 3 * 3_600 - 30)
        let result = try check()
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("QUOTED WARNING - 0 of 1 sources fresh; stale: custom.a (last success 3 h ago) |"))
        #expect(try check(["--stale-after-intervals", "4"]).status == 0, "the option moves the line")
        #expect(try quotectl.run(["--config", configure("[check]\nstale_after_intervals = 4\n"), "check"]).status == 0,
                "so does [check]")
    }

    @Test func aFailedLastAttemptIsAWarning() throws {
        try success(at: now - 600)
        try failure(at: now - 120)
        let result = try check()
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("QUOTED WARNING - 0 of 1 sources fresh; failing: custom.a (HTTP 503 for 2 min) |"),
                "\(result.stdout)")
        #expect(result.stdout.hasSuffix("| fresh=0;;; stale=0;;; failing=1;;;\n"))
    }

    @Test func failingForLongerThanTheThresholdIsCritical() throws {
        try success(at: now - 3 * 3_600)
        try failure(at: now - 2 * 3_600)
        try failure(at: now - 60)
        let result = try check()
        #expect(result.status == 2, "\(result.stdout)")
        #expect(result.stdout.hasPrefix("QUOTED CRITICAL - 0 of 1 sources fresh; failing: custom.a (HTTP 503 for 2 h) |"))
        #expect(try check(["--critical-after", "3h"]).status == 1)
        #expect(try quotectl.run(["--config", configure("[check]\ncritical_after = 3h\n"), "check"]).status == 1)
        #expect(try quotectl.run(["--config", configure("[check]\ncritical_after = 3h\n"), "check", "--critical-after", "1h"]).status == 2,
                "the option overrides the file")
    }

    @Test func aSpokesExpiredFeedIsCritical() throws {
        let hub = "http://127.0.0.1:9/feed/"
        let config = folder.write("spoke.conf", "[store]\npath = \(storePath)\n[fleet]\nhub = \(hub)\n"
                                  + "[source.happiness]\nenabled = false\n[source.breakingbad]\nenabled = false\n")
        try success("upbit", at: now - 60, url: hub + "manifest.json")
        let store = try Store(path: storePath, access: .write)
        try store.feedTrust.record(
            .init(name: "hub.example", serial: 7, generated: now - 9_000, validUntil: now - 7_200, checkedAt: now - 60))
        let result = try quotectl.run(["--config", config, "check"])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("QUOTED CRITICAL - 0 of 1 sources fresh; failing: upbit (feed expired 2 h ago) |"))
        let metrics = try quotectl.run(["--config", config, "status", "--format", "prometheus"])
        #expect(metrics.stdout.contains("quoted_source_up{source=\"upbit\",feed=\"hub.example\"} 1\n"), "\(metrics.stdout)")
        #expect(metrics.stdout.contains("quoted_spoke_feed_expiry_timestamp_seconds{feed=\"hub.example\"} \(now - 7_200)\n"))
        #expect(metrics.stdout.contains("quoted_spoke_feed_applied_serial{feed=\"hub.example\"} 7\n"))
    }

    /// A spoke that names none of its sources: upbit by default, and a list only the hub's configuration names.
    func spokeConfiguration() -> String {
        folder.write("spoke.conf", "[store]\npath = \(storePath)\n[fleet]\nhub = http://127.0.0.1:9/feed/\n"
                     + "[source.happiness]\nenabled = false\n[source.breakingbad]\nenabled = false\n")
    }

    @Test func aHubsListTheSpokeDoesNotNameIsWatchedWhereItFails() throws {
        let config = spokeConfiguration()
        let manifest = "http://127.0.0.1:9/feed/manifest.json"
        try success("upbit", at: now - 60, url: manifest)
        try success("custom.hublist", at: now - 900, url: manifest)
        try record { (state) throws(StoreError) in
            try state.recordFailure(source: "custom.hublist", url: manifest,
                                    outcome: .init(ok: false, httpStatus: 404, message: "feed: HTTP 404", started: now - 60,
                                                   finished: now - 60),
                                    retryAfter: nil, nextDue: now + 600)
        }
        let store = try Store(path: storePath, access: .write)
        try store.feedTrust.record(
            .init(name: "hub.example", serial: 3, generated: now - 600, validUntil: now + 86_400, checkedAt: now - 60))
        let result = try quotectl.run(["--config", config, "check"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("QUOTED WARNING - 1 of 2 sources fresh; failing: custom.hublist (feed: HTTP 404 for 1 min) |"),
                "\(result.stdout)")
        let metrics = try quotectl.run(["--config", config, "status", "--format", "prometheus"]).stdout
        for line in ["quoted_source_up{source=\"custom.hublist\",feed=\"hub.example\"} 0",
                     "quoted_source_consecutive_failures{source=\"custom.hublist\",feed=\"hub.example\"} 1",
                     "quoted_source_interval_seconds{source=\"custom.hublist\",feed=\"hub.example\"} 3600",
                     "quoted_source_up{source=\"upbit\",feed=\"hub.example\"} 1"] {
            #expect(metrics.contains(line + "\n"), "\(line)\n\(metrics)")
        }
    }

    @Test func aSpokeThatNeverSyncedWarnsOfTheSourcesItWouldSync() throws {
        let config = spokeConfiguration()
        _ = try Store(path: storePath, access: .write)
        let result = try quotectl.run(["--config", config, "check"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "QUOTED WARNING - 0 of 1 sources fresh; stale: upbit (never synced) | fresh=0;;; stale=1;;; failing=0;;;\n")
        let metrics = try quotectl.run(["--config", config, "status", "--format", "prometheus"]).stdout
        #expect(metrics.contains("quoted_source_up{source=\"upbit\"} 0\n"), "\(metrics)")
    }

    @Test func noStoreIsUnknownAndNoneIsMade() throws {
        let result = try check()
        #expect(result.status == 3)
        #expect(result.stdout == "QUOTED UNKNOWN - no store at \(storePath)\n")
        #expect(!FileManager.default.fileExists(atPath: storePath))
        // Nor at the default place, with no configuration at all.
        var bare = quotectl
        bare.environment["XDG_DATA_HOME"] = folder.file("data")
        #expect(try bare.run(["check"]).status == 3)
        #expect(!FileManager.default.fileExists(atPath: folder.file("data")))
    }

    @Test func aGarbageOrUnreadableStoreIsUnknown() throws {
        folder.write("q.db", String(repeating: "not a database ", count: 500))
        let garbage = try check()
        #expect(garbage.status == 3)
        #expect(garbage.stdout.hasPrefix("QUOTED UNKNOWN - ") && garbage.stdout.contains(storePath), "\(garbage.stdout)")
        try FileManager.default.removeItem(atPath: storePath)
        try FileManager.default.createDirectory(atPath: storePath, withIntermediateDirectories: false)
        let folderStore = try check()
        #expect(folderStore.status == 3, "\(folderStore.stdout)")
        #expect(folderStore.stdout.hasPrefix("QUOTED UNKNOWN - "))
    }

    @Test func badArgumentsAreUnknownWithTheUsage() throws {
        let extremes = ["", "0", "-1", "101", "9223372036854775807", "99999999999999999999", "1.5", "２"].map { ["--stale-after-intervals", $0] }
            + ["", "0s", "59s", "31d", "-1h", "9223372036854775807s", "1e9h"].map { ["--critical-after", $0] }
        for arguments in [["--bogus"], ["--critical-after", "soon"], ["--stale-after-intervals", "0"], ["extra"]] + extremes {
            let result = try check(arguments)
            #expect(result.status == 3, "\(arguments): \(result.status)")
            #expect(result.stdout.hasPrefix("QUOTED UNKNOWN - "))
            #expect(result.stderr.contains("quotectl check --help"), "\(result.stderr)")
        }
    }

    /// `[check]` values past their bounds are the configuration's mistake: UNKNOWN naming file and
    /// line, never a verdict made with a value that could overflow.
    @Test func checkSettingsOutOfBoundsAreUnknownNamingTheLine() throws {
        try success(at: now - 60)
        for line in ["stale_after_intervals = 0", "stale_after_intervals = -1", "stale_after_intervals = 9223372036854775807",
                     "stale_after_intervals = ", "critical_after = 59s", "critical_after = 31d", "critical_after = -1h",
                     "critical_after = 9223372036854775807s", "critical_after = 1h\ncritical_after = 2h"] {
            let result = try quotectl.run(["--config", configure("[check]\n\(line)\n"), "check"])
            #expect(result.status == 3, "\(line): \(result.stdout)")
            #expect(result.stdout.hasPrefix("QUOTED UNKNOWN - ") && result.stdout.contains("quoted.conf:"), "\(line): \(result.stdout)")
        }
    }

    @Test func prometheusCarriesTheCountersAndPassesPromtool() throws {
        try success(at: now - 7_200)
        try failure(at: now - 3_600)
        try success(at: now - 60)
        let result = try quotectl.run(["--config", configure(), "status", "--format", "prometheus"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout
        for line in ["quoted_source_up{source=\"custom.a\"} 1", "quoted_source_fetched_bytes_total{source=\"custom.a\"} 2568",
                     "quoted_source_rows_changed_total{source=\"custom.a\"} 6",
                     "quoted_source_syncs_total{source=\"custom.a\",result=\"ok\"} 2",
                     "quoted_source_syncs_total{source=\"custom.a\",result=\"failed\"} 1",
                     "quoted_source_last_sync_duration_seconds{source=\"custom.a\"} 0.250",
                     "quoted_source_interval_seconds{source=\"custom.a\"} 3600",
                     "quoted_source_last_success_timestamp_seconds{source=\"custom.a\"} \(now - 60)"] {
            #expect(text.contains(line + "\n"), "\(line)")
        }
        #expect(!text.contains("failing_since"), "a source that succeeded last is not failing")
        #expect(!text.contains("quoted_daemon_"), "no daemon answered")
        // promtool is in CI's packages: a missing one fails here rather than skipping.
        let promtool = "/usr/bin/promtool"
        #expect(FileManager.default.isExecutableFile(atPath: promtool), "install Debian's prometheus (scripts/debian-packages.sh)")
        guard FileManager.default.isExecutableFile(atPath: promtool) else { return }
        let checked = try BinaryRunner("promtool", home: folder.path, path: promtool).run(["check", "metrics"], stdin: text)
        #expect(checked.status == 0 && checked.stdout.isEmpty && checked.stderr.isEmpty, "\(checked.stdout)\(checked.stderr)")
    }
}
