import QuoteHealth
import Testing

@Suite struct HealthVerdictTests {
    let now = 100_000

    func synced(_ name: String, ago: Int, interval: Int = 3_600) -> SourceHealth {
        var source = SourceHealth(name: name)
        source.intervalSeconds = interval
        source.lastAttempt = now - ago
        source.lastSuccess = now - ago
        source.nextDue = now - ago + interval
        return source
    }

    func failing(_ name: String, since: Int, status: Int? = 503) -> SourceHealth {
        var source = synced(name, ago: 600)
        source.lastAttempt = now - 60
        source.consecutiveFailures = 2
        source.failingSince = now - since
        source.lastHTTPStatus = status
        source.lastError = "HTTP 503"
        return source
    }

    /// Times come from the store, which may hold anything: the extremes give a verdict, not a trap.
    @Test func extremeTimesInTheStoreGiveAVerdict() {
        var failingForever = failing("a", since: 0)
        failingForever.failingSince = Int.min
        failingForever.lastSuccess = Int.min
        var fromTheFuture = synced("b", ago: 0)
        fromTheFuture.lastSuccess = Int.max
        var never = SourceHealth(name: "c")
        never.intervalSeconds = Int.max
        let verdict = HealthVerdict(sources: [failingForever, fromTheFuture, never], now: Int.max)
        #expect(verdict.status == .critical)
        #expect(verdict.summary.contains("a (HTTP 503 for \(Int.max / 86_400) d)"), "\(verdict.summary)")
        #expect(HealthVerdict(sources: [failingForever], now: Int.min).status != .ok)
    }

    @Test func allFreshIsOK() {
        let verdict = HealthVerdict(sources: ["a", "b", "c", "d", "e"].map { synced($0, ago: 60) }, now: now)
        #expect(verdict.status == .ok)
        #expect(verdict.line == "QUOTED OK - 5 of 5 sources fresh | fresh=5;;; stale=0;;; failing=0;;;")
    }

    @Test func aFailureIsAWarningUntilItLastsLongerThanTheThreshold() {
        let sources = [synced("a", ago: 60), failing("upbit", since: 12 * 60)]
        let verdict = HealthVerdict(sources: sources, now: now)
        #expect(verdict.status == .warning)
        #expect(verdict.line == "QUOTED WARNING - 1 of 2 sources fresh; failing: upbit (HTTP 503 for 12 min) | fresh=1;;; stale=0;;; failing=1;;;")
        let long = HealthVerdict(sources: [synced("a", ago: 60), failing("upbit", since: 2 * 3_600)], now: now)
        #expect(long.status == .critical)
        #expect(long.summary == "1 of 2 sources fresh; failing: upbit (HTTP 503 for 2 h)")
        let patient = HealthVerdict(sources: [failing("upbit", since: 2 * 3_600)], now: now,
                                    thresholds: HealthThresholds(staleAfterIntervals: 2, criticalAfterSeconds: 3 * 3_600))
        #expect(patient.status == .warning)
    }

    /// A feed refused over its DTD was answered 200: the line names the reason the store recorded,
    /// not a status that went well; with no reason recorded, the status is the reason.
    @Test func aFailureIsNamedByItsStoredReasonNotItsStatus() {
        var refused = failing("custom.lol", since: 0, status: 200)
        refused.lastError = "the list is not an Atom or RSS feed: a DTD is refused (entities could expand without bound)"
        let summary = HealthVerdict(sources: [refused], now: now).summary
        #expect(summary == "0 of 1 sources fresh; failing: custom.lol "
                + "(the list is not an Atom or RSS feed: a DTD is refused (entities could expand without bound) for 0 s)")
        #expect(!summary.contains("HTTP 200"))
        var unexplained = failing("upbit", since: 60)
        unexplained.lastError = nil
        #expect(HealthVerdict(sources: [unexplained], now: now).summary == "0 of 1 sources fresh; failing: upbit (HTTP 503 for 1 min)")
    }

    @Test func staleAfterTwoIntervalsAndNeverSynced() {
        let dueButFresh = synced("a", ago: 3_600 + 60)
        #expect(HealthVerdict(sources: [dueButFresh], now: now).status == .ok)
        let old = synced("weather", ago: 3 * 3_600)
        let verdict = HealthVerdict(sources: [old, SourceHealth(name: "custom.x")], now: now)
        #expect(verdict.status == .warning)
        #expect(verdict.summary == "0 of 2 sources fresh; stale: weather (last success 3 h ago), custom.x (never synced)")
        #expect(verdict.stale == 2)
        #expect(HealthVerdict(sources: [old], now: now, thresholds: HealthThresholds(staleAfterIntervals: 4)).status == .ok)
    }

    @Test func anExpiredFeedIsCritical() {
        var fed = synced("upbit", ago: 60)
        fed.feed = "hub"
        fed.feedValidUntil = now - 7_200
        let verdict = HealthVerdict(sources: [fed], now: now)
        #expect(verdict.status == .critical)
        #expect(verdict.summary == "0 of 1 sources fresh; failing: upbit (feed expired 2 h ago)")
    }

    @Test func hostileTextCannotBreakTheLine() {
        var source = failing("custom.x", since: 30, status: nil)
        source.lastError = "bad | fresh=99\nsecond line"
        let line = HealthVerdict(sources: [source], now: now).line
        #expect(line.split(separator: "|").count == 2)
        #expect(!line.contains("\n"))
        #expect(HealthVerdict.unknownLine("no store at /x|y").contains("/x/y"))
    }

    @Test func theBarsWordsFollowTheOneRule() {
        #expect(synced("a", ago: 60).freshness(now: now) == .fresh)
        #expect(synced("a", ago: 4_000).freshness(now: now) == .due)
        #expect(SourceHealth(name: "a").freshness(now: now) == .never)
        #expect(SourceHealth(name: "builtin").freshness(now: now) == .fresh)
        #expect(failing("a", since: 10).freshness(now: now) == .failing)
    }
}
