import QuoteSystemTasks
import Synchronization
import Foundation
import QuoteBase
import QuoteConfig
@testable import QuoteStore
import QuoteModels
import QuoteText
@testable import QuoteSync
import Testing
import TestSupport

/// The happiness envelope, as the NestJS server writes it.
func happiness(id: Int, content: String, author: String? = "Jonathan Haidt, 사회심리학자") -> String {
    let authorJSON = author.map { "\"\($0)\"" } ?? "null"
    return #"{"message": "Quote fetched successfully", "statusCode": 200, "data": {"id": \#(id), "content": "\#(content)", "author": \#(authorJSON), "description": null, "link": null}}"#
}

@Suite(.timeLimit(.minutes(10))) struct HappinessSyncTests {
    let day = 20_400 * 86_400

    @Test func storesTheQuoteAsTodaysAndAccumulates() async throws {
        let harness = try SyncHarness { _ in .json(happiness(id: 60, content: "행복은 내면에서 오지 않고 ... Happiness comes not from within"), headers: [("ETag", "W/\"a\"")]) }
        let settings = harness.settings(.happiness, path: "/happiness/random-quote")
        let first = await harness.sync(settings, now: day + 3_600)
        #expect(first.ok, "\(first.summary)")
        #expect(first.counts.inserted == 1)
        let picker = try harness.store().quotes
        #expect(try picker.today(now: day + 7_200, filter: QuoteFilter(source: "happiness"))?.upstreamID == "60")
        #expect(try picker.today(now: day + 7_200, filter: QuoteFilter(source: "happiness"))?.lang == "ko")

        // Next day: a new quote; the old one stays.
        harness.server.answer { _ in .json(happiness(id: 61, content: "다른 날"), headers: [("ETag", "W/\"b\"")]) }
        #expect(await harness.sync(settings, now: day + 86_400 + 600).counts.inserted == 1)
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'happiness'") == 2)
        #expect(try picker.today(now: day + 86_400 + 700, filter: QuoteFilter(source: "happiness"))?.upstreamID == "61")

        // A 304 the day after that: the same quote is that day's quote too.
        harness.server.answer { _ in .status(304, headers: [("ETag", "W/\"b\"")]) }
        let unchanged = await harness.sync(settings, now: day + 2 * 86_400 + 600)
        #expect(unchanged.ok)
        #expect(harness.server.requests.last?.headers["if-none-match"] == "W/\"b\"")
        #expect(try picker.today(now: day + 2 * 86_400 + 700, filter: QuoteFilter(source: "happiness"))?.upstreamID == "61")
    }

    @Test(arguments: [
        (404, #"{"statusCode":404,"message":"No quotes found","error":"Not Found"}"#, "HTTP 404: No quotes found"),
        (500, #"{"statusCode":500,"message":"Internal server error"}"#, "HTTP 500: Internal server error"),
        (200, #"{"statusCode":200,"message":"odd"}"#, "no \"data\" object"),
    ])
    func errorEnvelopesFailAndChangeNothing(status: Int, body: String, expected: String) async throws {
        let harness = try SyncHarness { _ in .json(happiness(id: 1, content: "첫 인용")) }
        let settings = harness.settings(.happiness, path: "/q")
        _ = await harness.sync(settings)
        let before = try harness.snapshot()
        harness.server.answer { _ in .json(body, status: status) }
        let report = await harness.sync(settings)
        #expect(!report.ok)
        #expect(report.summary.contains(expected), "\(report.summary)")
        #expect(try harness.snapshot() == before)
    }

    @Test func anUnusableRecordIsSkipped() async throws {
        let harness = try SyncHarness { _ in .json(#"{"data": {"id": 5, "content": ""}}"#) }
        let report = await harness.sync(harness.settings(.happiness, path: "/q"))
        #expect(report.ok)
        #expect(report.counts.skipped == 1)
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'happiness'") == 0)
    }
}

/// A Breaking Bad API over a pool of quotes, deaths and characters.
final class FakeBreakingBad: Sendable {
    /// What the fake serves and how far it got, inside its lock: the server's
    /// threads answer while a test changes the pool.
    struct Pool {
        var quotes: [(id: Int, character: String, production: String)]
        var deaths: [(id: Int, character: String)]
        var characters: [String: Int]
        var failOnRequest: Int?
        var served = 0
        var next: [String: Int] = [:]
    }
    private let pool: Mutex<Pool>

    init(quoteCount: Int) {
        let cast = ["Walter White", "Jesse Pinkman", "Saul Goodman", "Mike Ehrmantraut", "Nobody Known"]
        pool = Mutex(Pool(
            quotes: (1...quoteCount).map { ($0, cast[$0 % cast.count], $0 % 2 == 0 ? "Breaking Bad" : "Better Call Saul") },
            deaths: [(1, "Walter White"), (2, "Gus Fring")],
            characters: ["Walter White": 1, "Jesse Pinkman": 2, "Saul Goodman": 3, "Mike Ehrmantraut": 4, "Gus Fring": 5]))
    }

    /// Changes what the fake serves from now on.
    func change(_ body: (inout Pool) -> Void) { pool.withLock { body(&$0) } }

    func answer(_ request: TestUpstream.Request) -> TestUpstream.Response {
        pool.withLock { answer(request, from: &$0) }
    }

    private func answer(_ request: TestUpstream.Request, from pool: inout Pool) -> TestUpstream.Response {
        pool.served += 1
        if let failOnRequest = pool.failOnRequest, pool.served == failOnRequest {
            return .json(#"{"message": "rate limited"}"#, status: 503)
        }
        switch request.path {
        case "/api/quotes/random":
            let production = request.query["production"] ?? ""
            // Round-robin rather than random, so every test run sees the same sequence.
            let candidates = pool.quotes.filter { $0.production == production }
            guard !candidates.isEmpty else { return .json("{}", status: 404) }
            let quote = candidates[pool.next[production, default: 0] % candidates.count]
            pool.next[production, default: 0] += 1
            return .json(#"{"quote_id": \#(quote.id), "quote": "Line \#(quote.id)", "character": "\#(quote.character)", "production": "\#(quote.production)", "episode": \#(100 + quote.id)}"#)
        case "/api/deaths":
            return .json("[" + pool.deaths.map { #"{"death_id": \#($0.id), "character": "\#($0.character)", "cause": "cause \#($0.id)", "responsible": ["X"], "connected": [], "last_words": "bye", "episode": 516, "production": "Breaking Bad"}"# }.joined(separator: ",") + "]")
        case "/api/characters":
            let name = request.query["name"] ?? ""
            guard let id = pool.characters[name] else { return .json("[]") }
            return .json(#"[{"character_id": \#(id), "name": "\#(name)", "full_name": "\#(name) Sr.", "birthday": "Unknown", "occupations": ["Chemist"], "images": [], "aliases": ["Heisenberg"], "status": "Alive", "appearance": {"breaking_bad": [1]}, "portrayed_by": "Actor \#(id)", "productions": ["Breaking Bad"]}]"#)
        default:
            return .status(404)
        }
    }
}

@Suite(.timeLimit(.minutes(10))) struct BreakingBadSyncTests {
    func setup(quotes: Int = 30) throws -> (SyncHarness, FakeBreakingBad, SourceSettings) {
        let fake = FakeBreakingBad(quoteCount: quotes)
        let harness = try SyncHarness { fake.answer($0) }
        var settings = harness.settings(.breakingbad, path: "/api")
        settings.productions = ["Breaking Bad", "Better Call Saul"]
        settings.knownStreak = 15
        // The whole sync's deadline follows the request timeout: these tests are about requests
        // and rows, and a run whose cooperative threads other suites keep busy must not give up
        // on a fake that answers at once.
        settings.timeout = 30
        return (harness, fake, settings)
    }

    @Test func samplesQuotesFetchesDeathsAndLinksCharacters() async throws {
        let (harness, _, settings) = try setup()
        let report = await harness.sync(settings)
        #expect(report.ok, "\(report.summary)")
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'breakingbad'") == 30)
        #expect(try harness.count("SELECT count(*) FROM deaths") == 2)
        #expect(try harness.count("SELECT count(*) FROM characters") == 5)
        #expect(try harness.count("SELECT count(*) FROM unknown_characters") == 1)  // "Nobody Known"
        let walter = try harness.store().listings.characters(matching: "Walter White")
        #expect(walter.first?.death?.cause == "cause 1")
        #expect(walter.first?.quoteCount == 6)
        #expect(harness.server.requests.count <= settings.requestBudget + 1 + 6)
    }

    @Test func theRequestBudgetBoundsARun() async throws {
        var (harness, _, settings) = try setup(quotes: 400)
        settings.requestBudget = 25
        let report = await harness.sync(settings)
        #expect(report.ok)
        let sampling = harness.server.requests.filter { $0.path == "/api/quotes/random" }.count
        #expect(sampling <= 25)
        #expect(harness.server.requests.count <= 26)  // + deaths; no budget left for characters
    }

    @Test func aSecondRunAsksOnlyForWhatIsMissing() async throws {
        let (harness, _, settings) = try setup()
        _ = await harness.sync(settings)
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'breakingbad'") == 30)
        harness.server.clearRequests()
        let again = await harness.sync(settings)
        #expect(again.ok)
        #expect(again.counts.inserted == 0)
        #expect(harness.server.requests.filter { $0.path == "/api/characters" }.isEmpty)  // unknown names are not re-asked
        // Every quote was drawn twice in the first run, so the Chao1 estimate says nothing is
        // unseen: only the probe draws are made (the streak rule alone would take 15 + 15).
        #expect(harness.server.requests.filter { $0.path == "/api/quotes/random" }.count == 2 * BreakingBadSource.probeDraws)
    }

    /// 90 quotes over 3 productions with the default budget: the first sync ends with every
    /// character named by a stored quote or death stored or marked unknown, and the draws
    /// it made estimate the pool.
    @Test func theFirstSyncLooksUpEveryNamedCharacter() async throws {
        let fake = FakeBreakingBad(quoteCount: 90)
        let productions = ["Breaking Bad", "Better Call Saul", "El Camino"]
        let cast = (0..<12).map { "Person \($0)" }
        fake.change {
            $0.quotes = (1...90).map { ($0, cast[$0 % cast.count], productions[$0 % 3]) }
            $0.characters = Dictionary(uniqueKeysWithValues: cast.prefix(10).enumerated().map { ($1, $0 + 10) })
        }
        let harness = try SyncHarness { fake.answer($0) }
        var settings = harness.settings(.breakingbad, path: "/api")
        settings.productions = productions
        let report = await harness.sync(settings)
        #expect(report.ok, "\(report.summary)")
        #expect(harness.server.requests.count <= settings.requestBudget)
        let unresolved = try harness.count("""
            SELECT count(*) FROM (SELECT author AS name FROM quotes WHERE source = 'breakingbad'
                                  UNION SELECT character FROM deaths)
             WHERE lower(name) NOT IN (SELECT lower(name) FROM characters)
               AND lower(name) NOT IN (SELECT lower(name) FROM unknown_characters)
            """)
        #expect(unresolved == 0)
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'breakingbad'") == 90)
        let status = try harness.store().status.sources().first { $0.name == "breakingbad" }
        let estimate = try #require(status?.poolEstimate)
        #expect(estimate.observed == 90)
        #expect(abs(estimate.estimated - 90) < 9)
    }

    @Test func theChao1EstimateFollowsSingletonsAndDoubletons() {
        #expect(PoolEstimate(drawCounts: [Int]()).unseenShare == 1)
        #expect(PoolEstimate(drawCounts: [2, 2, 3]).estimated == 3)
        // 4 singletons, no doubletons: 4 + 4*3/2 = 10.
        #expect(PoolEstimate(drawCounts: [1, 1, 1, 1]).estimated == 10)
        #expect(abs(PoolEstimate(drawCounts: [1, 1, 2, 2]).unseenShare - (1 - 4.0 / (4 + 2.0 / 6))) < 1e-9)
    }

    @Test func anEmptyDeathsListIsRefusedUnlessAllowed() async throws {
        var (harness, fake, settings) = try setup()
        _ = await harness.sync(settings)
        #expect(try harness.count("SELECT count(*) FROM deaths") == 2)
        fake.change { $0.deaths = [] }
        let refused = await harness.sync(settings)
        #expect(!refused.ok)
        #expect(refused.summary.contains("refusing an empty list of deaths"), "\(refused.summary)")
        #expect(try harness.count("SELECT count(*) FROM deaths") == 2)
        settings.allowShrink = true
        #expect(await harness.sync(settings).ok)
        #expect(try harness.count("SELECT count(*) FROM deaths") == 0)
    }

    @Test func aFailedRequestMidRunWritesNothing() async throws {
        let (harness, fake, settings) = try setup()
        fake.change { $0.failOnRequest = 5 }
        let report = await harness.sync(settings)
        #expect(!report.ok)
        #expect(report.summary == "HTTP 503: rate limited")
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'breakingbad'") == 0)
        #expect(try harness.count("SELECT count(*) FROM characters") == 0)
    }

    @Test func deathsAreReplacedByTheUpstreamList() async throws {
        let (harness, fake, settings) = try setup()
        _ = await harness.sync(settings)
        fake.change { $0.deaths = [(2, "Gus Fring"), (3, "Jesse Pinkman")] }
        let report = await harness.sync(settings)
        #expect(report.ok)
        let deaths = try harness.store().listings.deaths().map(\.deathID).sorted()
        #expect(deaths == [2, 3])
    }
}

@Suite(.timeLimit(.minutes(10))) struct UpbitSyncTests {
    static let fixture = Fixtures.text("upbit/market_all_is_details.json")

    @Test func aSnapshotDelistsMissingPairsAndRelistsReturningOnes() async throws {
        let harness = try SyncHarness { _ in .json(UpbitSyncTests.fixture, headers: [("Remaining-Req", "group=market; min=600; sec=9")]) }
        let settings = harness.settings(.upbit, path: "/v1/market/all")
        let first = await harness.sync(settings)
        #expect(first.ok)
        #expect(first.counts.inserted == 536)
        #expect(first.summaryLine.hasPrefix("upbit: 536 markets, 536 changed"))

        var markets = try #require(try JSONSerialization.jsonObject(with: Data(UpbitSyncTests.fixture.utf8)) as? [[String: Any]])
        let removed = markets.removeFirst()["market"] as! String
        markets[0]["english_name"] = "Renamed"
        let changed = String(decoding: try JSONSerialization.data(withJSONObject: markets), as: UTF8.self)
        harness.server.answer { _ in .json(changed) }
        let second = await harness.sync(settings)
        #expect(second.counts == ChangeCounts(updated: 1, removed: 1, unchanged: 534))
        #expect(try harness.count("SELECT count(*) FROM markets WHERE delisted_at IS NOT NULL") == 1)
        #expect(try harness.store().listings.markets().contains { $0.market == removed } == false)

        harness.server.answer { _ in .json(UpbitSyncTests.fixture) }
        let third = await harness.sync(settings)
        #expect(third.counts.updated == 2)
        #expect(try harness.count("SELECT count(*) FROM markets WHERE delisted_at IS NOT NULL") == 0)
    }

    @Test func warningsAndCautionsAreRead() async throws {
        let body = #"[{"market": "KRW-AAA", "korean_name": "에이", "english_name": "A", "market_event": {"warning": true, "caution": {"PRICE_FLUCTUATIONS": true, "TRADING_VOLUME_SOARING": false}}}, {"market": "BTC-BBB", "english_name": "B"}, {"market": "nodash"}]"#
        let harness = try SyncHarness { _ in .json(body) }
        let report = await harness.sync(harness.settings(.upbit, path: "/m"))
        #expect(report.counts.skipped == 1)
        let flagged = try harness.store().listings.markets(warningOnly: true)
        #expect(flagged.map(\.market) == ["KRW-AAA"])
        #expect(flagged.first?.caution == #"["PRICE_FLUCTUATIONS"]"#)
        #expect(try harness.store().listings.markets(quoteCurrency: "BTC").map(\.baseCurrency) == ["BBB"])
    }

    @Test func a429BacksOffAnd418StopsForTheBlock() async throws {
        let harness = try SyncHarness { _ in .json(#"{"error": {"name": "too_many_requests", "message": "Too many requests"}}"#, status: 429) }
        let settings = harness.settings(.upbit, path: "/m")
        let now = UnixTime.now()
        let limited = await harness.sync(settings, now: now)
        #expect(!limited.ok)
        #expect(limited.summary.hasPrefix("HTTP 429: Too many requests"))
        #expect(try harness.state("upbit").retryAfter == now + 60)
        harness.server.clearRequests()
        _ = await harness.sync(settings, now: now + 1)
        #expect(harness.server.requests.isEmpty)

        harness.server.answer { _ in .json(#"{"error": {"name": "blocked", "message": "blocked"}}"#, status: 418, headers: [("Retry-After", "900")]) }
        let blocked = await harness.sync(settings, now: now + 61)
        #expect(blocked.summary == "blocked by Upbit (HTTP 418) for 900 s: too many requests")
        #expect(try harness.state("upbit").retryAfter == now + 61 + 900)
        #expect(await harness.sync(settings, now: now + 600).summary.hasPrefix("not contacted"))
    }

    /// A host that said `sec=0` gets its next request in the next second — on the gate's clock,
    /// which the test moves; a host with budget left is not held at all.
    @Test func anExhaustedPerSecondBudgetDelaysTheNextRequest() async throws {
        let clock = ManualClock()
        let gate = HostGate(clock: clock)
        await gate.acquire("api.upbit.com")
        await gate.release("api.upbit.com", remainingHeader: "group=market; min=600; sec=0")
        let acquired = Task { await gate.acquire("api.upbit.com") }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1, "let through before the second was over")
        clock.advance(by: .milliseconds(1))
        await acquired.value
        await gate.release("api.upbit.com", remainingHeader: "group=market; min=599; sec=9")
        // Budget left: no sleep at all.
        await gate.acquire("api.upbit.com")
        #expect(clock.sleeperCount == 0)
        await gate.release("api.upbit.com", remainingHeader: nil)
    }

    @Test func oneRequestAtATimePerHost() async throws {
        let gate = HostGate()
        let active = ManagedAtomicCounter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await gate.acquire("h")
                    let now = active.increment()
                    try? await Task.sleep(for: .milliseconds(5))  // a request in flight a while: an overlapping one would be seen
                    active.decrement()
                    await gate.release("h", remainingHeader: nil)
                    #expect(now == 1)
                }
            }
        }
    }
}

final class ManagedAtomicCounter: Sendable {
    private let value = Atomic(0)
    func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
    func decrement() { value.subtract(1, ordering: .relaxed) }
}

@Suite(.timeLimit(.minutes(10))) struct WeatherSyncTests {
    static let body = #"{"coord": {"lon": 126.978, "lat": 37.5665}, "weather": [{"id": 800, "main": "Clear", "description": "clear sky", "icon": "01d"}], "base": "stations", "main": {"temp": 3.2, "feels_like": 0.1, "temp_min": 2.0, "temp_max": 4.0, "pressure": 1025, "humidity": 40}, "visibility": 10000, "wind": {"speed": 2.1, "deg": 320}, "clouds": {"all": 0}, "dt": 1764400000, "sys": {"country": "KR", "sunrise": 1764368000, "sunset": 1764404000}, "timezone": 32400, "id": 1835848, "name": "Seoul", "cod": 200}"#

    @Test func storesOneObservationPerDt() async throws {
        let harness = try SyncHarness { _ in .json(WeatherSyncTests.body) }
        let settings = harness.settings(.weather, path: "/data/2.5/weather")
        let report = await harness.sync(settings)
        #expect(report.ok, "\(report.summary)")
        #expect(report.summary == "Seoul 3.2°C, clear sky (new)")
        let query = try #require(harness.server.requests.first?.query)
        #expect(query["appid"] == "SECRET-KEY-123")
        #expect(query["units"] == "metric")
        #expect(await harness.sync(settings).counts.unchanged == 1)
        #expect(try harness.store().listings.weather().first?.place == "Seoul")
    }

    @Test(arguments: [
        (401, #"{"cod": 401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#, "API key rejected (HTTP 401)"),
        (400, #"{"cod": "400", "message": "wrong latitude"}"#, "HTTP 400: wrong latitude"),
    ])
    func errorsAreReportedWithoutTheKey(status: Int, body: String, expected: String) async throws {
        let harness = try SyncHarness { _ in .json(body, status: status) }
        let report = await harness.sync(harness.settings(.weather, path: "/w"))
        #expect(report.summary == expected)
        #expect(report.isConfigurationProblem == (status == 401))
        let everything = try harness.snapshot().joined() + (try harness.state("weather").error ?? "")
            + (try harness.database().scalarString("SELECT group_concat(message) FROM sync_log") ?? "")
        #expect(!everything.contains("SECRET-KEY-123"))
        #expect(!report.json.contains("SECRET-KEY-123"))
    }

    @Test func aTimeoutMessageDoesNotCarryTheKeyEither() async throws {
        let harness = try SyncHarness { _ in .status(200) }
        var settings = harness.settings(.weather, path: "/w")
        settings.url = "http://127.0.0.1:1/w"  // nothing listens on port 1
        let report = await harness.sync(settings)
        #expect(!report.ok)
        #expect(!report.summary.contains("SECRET"))
    }
}
