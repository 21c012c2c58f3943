import Foundation
import QuoteBase
import QuoteConfig
@testable import QuoteStore
import QuoteModels
import QuoteText
@testable import QuoteSync
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(10))) struct CustomListSyncTests {
    @Test func firstSyncThenConditionalResyncWritesNothing() async throws {
        let body = listJSON([(1, "one"), (2, "two"), (3, "three")])
        let harness = try SyncHarness { request in
            if request.headers["if-none-match"] == "\"v1\"" { return .status(304, headers: [("ETag", "\"v1\"")]) }
            return .json(body, headers: [("ETag", "\"v1\""), ("Content-Type", "text/plain; charset=utf-8")])
        }
        let settings = harness.settings(.custom, path: "/raw/quotes.json")
        let first = await harness.sync(settings)
        #expect(first.ok, "\(first.summary)")
        #expect(first.counts.inserted == 3)
        #expect(first.summaryLine.hasPrefix("custom.test: 3 quotes, 3 changed"))
        let before = try harness.snapshot()

        let second = await harness.sync(settings)
        #expect(second.ok)
        #expect(second.counts.changed == 0)
        #expect(second.httpStatus == 304)
        #expect(harness.server.requests.last?.headers["if-none-match"] == "\"v1\"")
        #expect(try harness.snapshot() == before)
        #expect(try harness.state("custom.test").failures == 0)
    }

    @Test func anIdenticalBodyWithoutValidatorsWritesNothing() async throws {
        let harness = try SyncHarness { _ in .json(listJSON([(1, "one"), (2, "two")])) }
        let settings = harness.settings(.custom, path: "/list")
        _ = await harness.sync(settings)
        let before = try harness.snapshot()
        let again = await harness.sync(settings)
        #expect(again.ok)
        #expect(again.summary == "not modified")
        #expect(try harness.snapshot() == before)
    }

    @Test func aChangedListIsAppliedAsTheTruth() async throws {
        let harness = try SyncHarness { _ in .json(listJSON([(1, "one"), (2, "two"), (3, "three"), (4, "four")])) }
        let settings = harness.settings(.custom, path: "/list")
        _ = await harness.sync(settings)
        harness.server.answer { _ in .json(listJSON([(1, "one"), (2, "TWO"), (3, "three"), (5, "five")])) }
        let report = await harness.sync(settings)
        #expect(report.counts == ChangeCounts(inserted: 1, updated: 1, removed: 1, unchanged: 2))
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.test'") == 4)
        #expect(try harness.database().scalarString("SELECT text FROM quotes WHERE source = 'custom.test' AND upstream_id = '2'") == "TWO")
    }

    @Test func twoListsWithTheSameURLKeepTheirOwnValidators() async throws {
        let harness = try SyncHarness { request in
            if request.headers["if-none-match"] == "\"v1\"" { return .status(304, headers: [("ETag", "\"v1\"")]) }
            return .json(listJSON([(1, "one")]), headers: [("ETag", "\"v1\"")])
        }
        #expect(await harness.sync(harness.settings(.custom, path: "/list", name: "custom.a")).counts.inserted == 1)
        let second = await harness.sync(harness.settings(.custom, path: "/list", name: "custom.b"))
        #expect(second.counts.inserted == 1, "\(second.summary)")
        #expect(harness.server.requests.last?.headers["if-none-match"] == nil)
    }

    @Test func requestsCarryOurUserAgentAndNoOrigin() async throws {
        let harness = try SyncHarness { _ in .json(listJSON([(1, "one")])) }
        _ = await harness.sync(harness.settings(.custom, path: "/list"))
        let request = try #require(harness.server.requests.first)
        #expect(request.headers["user-agent"] == "quoted/\(QuotedVersion.current)")
        #expect(request.headers["origin"] == nil)
    }

    /// Each way an upstream can fail leaves every stored row as it was and records why.
    @Test(arguments: [
        ("500", "HTTP 500"), ("503", "HTTP 503"), ("timeout", "timed out"), ("reset", "connection"), ("truncated", "complete"),
        ("html", "HTML"), ("huge", "larger than"), ("loop", "redirects"), ("notjson", "not JSON"), ("object", "the list is not a JSON array of quotes (found an object)"),
    ])
    func failuresLeaveTheStoreUntouched(kind: String, expected: String) async throws {
        let good = listJSON([(1, "one"), (2, "two")])
        let harness = try SyncHarness { _ in .json(good) }
        var settings = harness.settings(.custom, path: "/list")
        settings.maxBytes = 4_096
        // The "timeout" case's answer comes after 3.5 s: the transfer's deadline is shorter.
        settings.timeout = 2
        #expect(await harness.sync(settings).ok)
        let before = try harness.snapshot()
        harness.server.answer { request in
            switch kind {
            case "500": return .json(#"{"message": "boom"}"#, status: 500)
            case "503": return .status(503, headers: [("Retry-After", "7")])
            case "timeout": return TestUpstream.Response(body: Array(good.utf8), behaviour: .delay(seconds: 3.5))
            case "reset": return TestUpstream.Response(behaviour: .reset)
            case "truncated": return TestUpstream.Response(body: Array((good + good).utf8), behaviour: .truncate(afterBytes: 20))
            case "html": return TestUpstream.Response(body: Array("<html><body>Bad gateway</body></html>".utf8))
            case "huge": return .json("[" + String(repeating: " ", count: 10_000) + "]")
            case "loop": return .status(302, headers: [("Location", request.path == "/a" ? "/list" : "/a")])
            case "notjson": return .json("quotes: one, two")
            default: return .json(#"{"quotes": []}"#)
            }
        }
        let report = await harness.sync(settings)
        #expect(!report.ok)
        #expect(report.summary.contains(expected), "\(report.summary)")
        #expect(!report.summary.contains("\n"))
        #expect(try harness.snapshot() == before)
        let state = try harness.state("custom.test")
        #expect(state.failures == 1)
        #expect(state.error == report.summary)
        if kind == "503" {
            #expect(report.summary == "HTTP 503, retry after 7 s")
            #expect(state.status == 503)
            #expect(state.retryAfter != nil)
        }
    }

    @Test func retryAfterAsAnHTTPDateIsRecordedAndHonoured() async throws {
        let harness = try SyncHarness { _ in .status(503, headers: [("Retry-After", "Wed, 21 Oct 2099 07:28:00 GMT")]) }
        let settings = harness.settings(.custom, path: "/list")
        let now = UnixTime.now()
        let report = await harness.sync(settings, now: now)
        // 2099 is further than any upstream may block us: capped at 7 days, and said so.
        #expect(report.retryAfter == now + RetryAfter.maximumWait)
        #expect(report.summary.contains("capped at 7 days"), "\(report.summary)")
        harness.server.clearRequests()
        let next = await harness.sync(settings)
        #expect(!next.ok)
        #expect(next.summary.hasPrefix("not contacted"))
        #expect(harness.server.requests.isEmpty)
    }

    @Test func suspiciousShrinkingIsRefusedUnlessAllowed() async throws {
        let twelve = (1...12).map { ($0, "quote \($0)") }
        let harness = try SyncHarness { _ in .json(listJSON(twelve)) }
        var settings = harness.settings(.custom, path: "/list")
        _ = await harness.sync(settings)
        let before = try harness.snapshot()
        harness.server.answer { _ in .json("[]") }
        let empty = await harness.sync(settings)
        #expect(!empty.ok)
        #expect(empty.summary.contains("empty list"))
        harness.server.answer { _ in .json(listJSON(Array(twelve.prefix(5)))) }
        let shrunk = await harness.sync(settings)
        #expect(!shrunk.ok)
        #expect(shrunk.summary.contains("would remove 7 of 12"), "\(shrunk.summary)")
        #expect(try harness.snapshot() == before)
        settings.allowShrink = true
        let allowed = await harness.sync(settings)
        #expect(allowed.ok)
        #expect(allowed.counts.removed == 7)
    }

    @Test func aBadRecordIsSkippedAndNeverDamagesItsStoredVersion() async throws {
        let harness = try SyncHarness { _ in .json(listJSON([(1, "one"), (2, "two"), (3, "three")])) }
        let settings = harness.settings(.custom, path: "/list")
        _ = await harness.sync(settings)
        harness.server.answer { _ in
            .json(#"[{"id": 1, "text": "one"}, {"id": 2, "text": ""}, {"id": 3, "text": 3}, {"id": 4, "text": "four"}]"#)
        }
        let report = await harness.sync(settings)
        #expect(report.ok)
        #expect(report.counts.skipped == 2)
        #expect(report.counts.inserted == 1)
        #expect(report.counts.removed == 0)
        let texts = try harness.database().prepare("SELECT text FROM quotes WHERE source = 'custom.test' ORDER BY upstream_id")
        var values: [String] = []
        while try texts.step() { values.append(texts.string(0)) }
        #expect(values == ["one", "two", "three", "four"])
    }

    @Test func aRedirectToPlainHTTPElsewhereIsRefused() async throws {
        let harness = try SyncHarness { _ in .status(301, headers: [("Location", "http://quotes.example.com/list")]) }
        let report = await harness.sync(harness.settings(.custom, path: "/list"))
        #expect(!report.ok)
        #expect(report.summary.contains("refusing plain http"), "\(report.summary)")
    }

    @Test func redirectsAreFollowedUpToFive() async throws {
        let harness = try SyncHarness { request in
            let hop = Int(request.path.dropFirst()) ?? 0
            return hop < 5 ? .status(302, headers: [("Location", "/\(hop + 1)")]) : .json(listJSON([(1, "x")]))
        }
        let report = await harness.sync(harness.settings(.custom, path: "/0"))
        #expect(report.ok, "\(report.summary)")
    }
}
