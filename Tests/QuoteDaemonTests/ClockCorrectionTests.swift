import Foundation
import QuoteConfig
@testable import QuoteDaemon
import QuoteScheduling
@testable import QuoteStore
import QuoteModels
import QuoteText
import QuoteSync
import Synchronization
import Testing
import TestSupport

/// A wall clock a test sets.
final class SettableClock: Sendable {
    private let seconds: Mutex<Int>
    init(_ seconds: Int) { self.seconds = Mutex(seconds) }
    var now: Int { seconds.withLock { $0 } }
    func set(_ value: Int) { seconds.withLock { $0 = value } }
}

/// A sync made while the clock was wrong (a bad RTC, a restored VM snapshot, a Pi before NTP)
/// must not strand its source once the clock is right again.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ClockCorrectionTests {
    let schedule = Schedule()
    let now = 1_800_000_000
    static let year = 365 * 86_400
    static let endOf9999 = 253_402_300_799

    func source(_ kind: SourceSettings.Kind = .upbit, interval: Int = 3_600) -> SourceSettings {
        SourceSettings(name: kind.rawValue, kind: kind, enabled: true, url: "https://x", interval: interval)
    }

    @Test(arguments: [year + 3_600, endOf9999 - 1_800_000_000, 3_961, 8 * 86_400])
    func aDueTimeBeyondItsHorizonComesBackToOneInterval(ahead: Int) {
        #expect(schedule.trusted(now + ahead, of: source(), now: now) == now + 3_600)
    }

    @Test func whatTheScheduleCouldHaveMadeIsKept() {
        #expect(schedule.trusted(now + 3_960, of: source(), now: now) == now + 3_960)  // interval + 10 % jitter
        #expect(schedule.trusted(now - Self.year, of: source(), now: now) == now - Self.year)  // past: due now
        #expect(schedule.trusted(now + 5 * 86_400, of: source(), now: now, blocked: true) == now + 5 * 86_400)  // the upstream's block
        #expect(schedule.trusted(now + 30 * 86_400, of: source(), now: now, blocked: true) == now + 3_600)  // beyond any block
        let day = (now / 86_400 + 1) * 86_400
        #expect(schedule.trusted(now + Self.year, of: source(.happiness), now: now) == day + Schedule.happinessOffset)
        #expect(schedule.trusted(day + 600, of: source(.happiness), now: now) == day + 600)
    }

    func store(at path: String, nextDue: Int, retryAfter: Int? = nil) throws {
        let store = try Store(path: path, access: .write)
        try store.database.begin()
        do {  // raw SQL (DatabaseError) beside store writes: BEGIN and COMMIT by hand
            try QuoteWriter(database: store.database).ensureSource("upbit", url: "https://x", now: now)
            try store.database.execute("INSERT INTO sync_state (source, next_due, last_success, retry_after) VALUES ('upbit', ?1, ?2, ?3)",
                                   [.integer(nextDue), .integer(now), retryAfter.map { .integer($0) } ?? .null])
        }
        try store.database.commit()
    }

    func daemon(storePath: String, clock: SettableClock) throws -> Daemon {
        let configuration = try Configuration.parse("[source.upbit]\nurl = https://x\ninterval = 1h\n[source.happiness]\nenabled = false\n[source.breakingbad]\nenabled = false\n",
                                                    file: "quoted.conf")
        return Daemon(configuration: configuration, storePath: storePath,
                      runner: EngineRunner(engine: SyncEngine(storePath: storePath)), logger: Logger(level: .error),
                      notifier: SystemdNotifier(socketPath: nil), loadConfiguration: { configuration },
                      wallClock: { clock.now })
    }

    func due(_ daemon: Daemon) async -> Int? {
        for reply in await daemon.statusReplies() where reply.kind == "source" {
            let object = try? JSONParser.parse(reply.text)
            if object?["source"]?.string == "upbit" { return object?["next_due"]?.int }
        }
        return nil
    }

    @Test(arguments: [year, endOf9999 - 1_800_000_000])
    func aStartAfterTheClockWasCorrectedDoesNotTrustTheStoredTime(ahead: Int) async throws {
        let folder = TemporaryFolder("quoted-clock")
        try store(at: folder.file("q.db"), nextDue: now + ahead)
        let clock = SettableClock(now)
        let daemon = try daemon(storePath: folder.file("q.db"), clock: clock)
        try await daemon.prepare()
        #expect(await due(daemon) == now + 3_600)
    }

    @Test func aClockThatJumpsWhileTheDaemonRunsIsNoticedAtTheNextWakeUp() async throws {
        let folder = TemporaryFolder("quoted-clock")
        // Synced while the clock was a year ahead: next due a year and an hour from the true now.
        let wrong = now + Self.year
        try store(at: folder.file("q.db"), nextDue: wrong + 3_600)
        let clock = SettableClock(wrong)
        let daemon = try daemon(storePath: folder.file("q.db"), clock: clock)
        try await daemon.prepare()
        #expect(await due(daemon) == wrong + 3_600, "under the wrong clock the time looks right")
        await daemon.replanAfterAClockJump()
        clock.set(now)  // NTP corrects it: a year back
        await daemon.replanAfterAClockJump()
        #expect(await due(daemon) == now + 3_600)
        // Forward to 9999 and back: due at once there, one interval from now once corrected.
        clock.set(Self.endOf9999 - 10_000)
        await daemon.replanAfterAClockJump()
        #expect(await due(daemon) == now + 3_600, "a time in the past is due now: it is left as it is")
    }

    @Test func anUpstreamBlockSurvivesARestartButNotAWrongClock() async throws {
        let folder = TemporaryFolder("quoted-clock")
        try store(at: folder.file("q.db"), nextDue: now + 3 * 86_400, retryAfter: now + 3 * 86_400)
        let daemon = try daemon(storePath: folder.file("q.db"), clock: SettableClock(now))
        try await daemon.prepare()
        #expect(await due(daemon) == now + 3 * 86_400)

        let skewed = TemporaryFolder("quoted-clock")
        try store(at: skewed.file("q.db"), nextDue: now + Self.year, retryAfter: now + Self.year)
        let corrected = try self.daemon(storePath: skewed.file("q.db"), clock: SettableClock(now))
        try await corrected.prepare()
        #expect(await due(corrected) == now + 3_600)
    }

    /// `quoted sync --once` reads a stored block the same way: a year-long one from a wrong
    /// clock is cut to one interval — and kept so, so that it ends rather than moving ahead.
    @Test func theEngineDoesNotHonourABlockFromAWrongClock() async throws {
        let server = try TestUpstream { _ in .json(Fixtures.text("upbit/market_all_is_details.json")) }
        defer { server.stop() }
        let folder = TemporaryFolder("quoted-clock")
        let engine = SyncEngine(storePath: folder.file("q.db"))
        var settings = SourceSettings(name: "upbit", kind: .upbit, enabled: true, url: server.baseURL + "/v1/market/all", interval: 3_600)
        settings.pauseMilliseconds = 0
        let store = try Store(path: folder.file("q.db"), access: .write)
        try store.database.begin()
        do {  // raw SQL (DatabaseError) beside store writes: BEGIN and COMMIT by hand
            try QuoteWriter(database: store.database).ensureSource("upbit", url: settings.url, now: now)
            try store.database.execute("INSERT INTO sync_state (source, next_due, retry_after) VALUES ('upbit', ?1, ?1)", [.integer(now + Self.year)])
        }
        try store.database.commit()
        let report = await engine.sync(settings, now: now)
        #expect(report.notContacted)
        #expect(report.retryAfter == now + 3_600, "\(report.summary)")
        #expect(await engine.sync(settings, now: now + 1_800).retryAfter == now + 3_600)
        let after = await engine.sync(settings, now: now + 3_601)
        #expect(after.ok, "\(after.summary)")
        #expect(server.requests.count == 1)
    }
}
