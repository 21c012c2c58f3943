import Foundation
import QuoteBase
import QuoteConfig
@testable import QuoteStore
import QuoteModels
import QuoteText
@testable import QuoteSync
import Testing
import TestSupport

/// An upstream that attacks: compression bombs, endless bodies, lying lengths, header
/// floods, absurd numbers. Every case fails the one source with a one-line reason, fast,
/// and leaves every stored row as it was.
@Suite(.timeLimit(.minutes(10))) struct HostileUpstreamTests {
    static let good = listJSON([(1, "one"), (2, "two")])
    /// Built once: 256 MiB of inflated spaces each, about 1.6 MB on the wire.
    static let gzipBomb = Compression.gzipBomb(inflatedBytes: 256 << 20)
    static let deflateBomb = Compression.deflateBomb(inflatedBytes: 256 << 20)

    /// A harness with one good sync behind it, and a cap of 1 MiB.
    func primed() async throws -> (SyncHarness, SourceSettings, [String]) {
        let harness = try SyncHarness { _ in .json(Self.good) }
        var settings = harness.settings(.custom, path: "/list")
        settings.maxBytes = 1 << 20
        settings.timeout = 10
        #expect(await harness.sync(settings).ok)
        return (harness, settings, try harness.snapshot())
    }

    @Test(arguments: ["gzip-bomb", "deflate-bomb", "endless-chunked", "endless-close", "huge-length", "gzip-endless"])
    func oversizedBodiesAreCutOffAtTheCap(kind: String) async throws {
        let (harness, settings, before) = try await primed()
        let gzipBomb = Self.gzipBomb
        let deflateBomb = Self.deflateBomb
        harness.server.answer { _ in
            switch kind {
            case "gzip-bomb": return TestUpstream.Response(headers: [("Content-Encoding", "gzip")], body: gzipBomb)
            case "deflate-bomb": return TestUpstream.Response(headers: [("Content-Encoding", "deflate")], body: deflateBomb)
            case "endless-chunked": return TestUpstream.Response(body: Array("[".utf8), behaviour: .endless(chunked: true))
            case "endless-close": return TestUpstream.Response(body: Array("[".utf8), behaviour: .endless(chunked: false))
            case "gzip-endless":
                return TestUpstream.Response(headers: [("Content-Encoding", "gzip")], body: Array(gzipBomb.prefix(1 << 16)),
                                             behaviour: .endless(chunked: true))
            default: return TestUpstream.Response(headers: [("Content-Length", "99999999999999")], body: Array(Self.good.utf8))
            }
        }
        let report = await harness.sync(settings)
        #expect(!report.ok)
        #expect(report.summary.contains("larger than max_bytes (1M): raise max_bytes in [source.custom.test]") || (kind == "gzip-endless" && report.summary.contains("compressed body")),
                "\(report.summary)")
        #expect(try harness.snapshot() == before)
    }

    @Test func aGzipBodyWithinTheCapIsDecoded() async throws {
        let (harness, settings, _) = try await primed()
        let three = listJSON([(1, "one"), (2, "two"), (3, "three")])
        harness.server.answer { _ in
            TestUpstream.Response(headers: [("Content-Encoding", "gzip")], body: Compression.gzip(Array(three.utf8)))
        }
        let report = await harness.sync(settings)
        #expect(report.ok, "\(report.summary)")
        #expect(report.counts.inserted == 1)
        #expect(harness.server.requests.last?.headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test func aShorterContentLengthIsAllThatIsRead() async throws {
        let (harness, settings, before) = try await primed()
        harness.server.answer { _ in TestUpstream.Response(headers: [("Content-Length", "5")], body: Array(Self.good.utf8)) }
        let report = await harness.sync(settings)
        #expect(!report.ok)
        #expect(report.summary.contains("not JSON"), "\(report.summary)")
        #expect(try harness.snapshot() == before)
    }

    @Test func aHeaderFloodIsRefused() async throws {
        let (harness, settings, before) = try await primed()
        let flood = (0..<3_000).map { ("X-Filler-\($0)", String(repeating: "y", count: 40)) }
        harness.server.answer { _ in .json(Self.good, headers: flood) }
        let report = await harness.sync(settings)
        #expect(!report.ok)
        #expect(report.summary.contains("headers larger than"), "\(report.summary)")
        #expect(try harness.snapshot() == before)
    }

    @Test func credentialsInARedirectOrURLAreRefused() async throws {
        let (harness, settings, _) = try await primed()
        harness.server.answer { _ in .status(302, headers: [("Location", "http://user:pw@127.0.0.1:1/x")]) }
        let report = await harness.sync(settings)
        #expect(!report.ok)
        #expect(report.summary.hasPrefix("invalid URL"), "\(report.summary)")
        #expect(!report.summary.contains("pw"))
    }

    /// Retry-After values no server should send: none traps, none blocks for more than 7 days.
    @Test(arguments: [
        ("9223372036854775807", RetryAfter.maximumWait, true), ("99999999999", RetryAfter.maximumWait, true),
        ("18446744073709551616", RetryAfter.maximumWait, true), ("604800", RetryAfter.maximumWait, false),
        ("0", 0, false), ("7", 7, false),
        ("Fri, 31 Dec 9999 23:59:59 GMT", RetryAfter.maximumWait, true),
    ])
    func absurdRetryAfterIsCapped(header: String, wait: Int, capped: Bool) async throws {
        let harness = try SyncHarness { _ in .status(503, headers: [("Retry-After", header)]) }
        let now = UnixTime.now()
        let report = await harness.sync(harness.settings(.custom, path: "/list"), now: now)
        #expect(!report.ok)
        #expect(report.retryAfter == now + wait)
        #expect(report.summary.contains("capped at 7 days") == capped, "\(report.summary)")
        #expect(try harness.state("custom.test").retryAfter == now + wait)
    }

    @Test(arguments: ["-1", "abc", "", "1e9", "  ", "Mon, 99 Foo 2024 99:99:99 GMT", "١٢٣"])
    func unreadableRetryAfterIsIgnored(header: String) async throws {
        let harness = try SyncHarness { _ in .status(503, headers: [("Retry-After", header)]) }
        let report = await harness.sync(harness.settings(.custom, path: "/list"))
        #expect(!report.ok)
        #expect(report.retryAfter == nil)
    }

    @Test func anUpbitBlockIsCappedToo() async throws {
        let harness = try SyncHarness { _ in .status(418, headers: [("Retry-After", "9223372036854775807")]) }
        let now = UnixTime.now()
        let report = await harness.sync(harness.settings(.upbit, path: "/v1/market/all"), now: now)
        #expect(report.retryAfter == now + RetryAfter.maximumWait)
        #expect(report.summary.contains("blocked by Upbit"), "\(report.summary)")
        #expect(report.summary.contains("capped at 7 days"), "\(report.summary)")
    }

    @Test func aBlockIsDroppedWhenTheURLChanges() async throws {
        let harness = try SyncHarness { request in
            request.path == "/old" ? .status(503, headers: [("Retry-After", "3600")]) : .json(Self.good)
        }
        var settings = harness.settings(.custom, path: "/old")
        let blocked = await harness.sync(settings)
        #expect(blocked.retryAfter != nil)
        #expect(await harness.sync(settings).summary.hasPrefix("not contacted"))
        settings.url = harness.server.baseURL + "/new"
        let moved = await harness.sync(settings)
        #expect(moved.ok, "\(moved.summary)")
        #expect(harness.server.requests.last?.path == "/new")
    }

    /// 6,000 × ("e" + U+0301) is 6,000 graphemes but 12,000 code points: over the limit by
    /// SQLite's count, so it is skipped and counted, and the rest of the list is applied.
    @Test func anOverlongRecordIsSkippedAndTheRestApplied() async throws {
        let long = String(repeating: "e\u{301}", count: 6_000)
        let body = "[" + #"{"id": 1, "category": "c", "text": "\#(long)", "source": "A"},"#
            + #"{"id": 2, "category": "c", "text": "fine", "source": "A"}]"#
        let harness = try SyncHarness { _ in .json(body) }
        let report = await harness.sync(harness.settings(.custom, path: "/list"))
        #expect(report.ok, "\(report.summary)")
        #expect(report.counts.skipped == 1)
        #expect(report.counts.inserted == 1)
        #expect(QuoteLength.length("e\u{301}") == 2)
    }

    /// The store's write lock held by another process for the whole sync: the failure is
    /// the store's (busy, exit 75), not the upstream's — its failure count, block and last
    /// success stay as they were.
    @Test func aBusyStoreIsALocalFailure() async throws {
        let harness = try SyncHarness { _ in .json(Self.good) }
        let settings = harness.settings(.custom, path: "/list")
        #expect(await harness.sync(settings).ok)
        let before = try harness.state("custom.test")
        let holder = try Database(path: harness.storePath, mode: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        harness.server.answer { _ in .json(listJSON([(1, "one"), (2, "two"), (3, "three")])) }
        let report = await SyncEngine(storePath: harness.storePath, busyTimeoutMilliseconds: 300).sync(settings)
        try holder.execute("ROLLBACK")
        #expect(!report.ok)
        #expect(report.summary.hasPrefix("store: busy"), "\(report.summary)")
        #expect(report.storeExitCode == 75)
        let after = try harness.state("custom.test")
        #expect(after.failures == before.failures)
        #expect(after.retryAfter == before.retryAfter)
        #expect(after.lastSuccess == before.lastSuccess)
    }

    /// What a local failure records: its message and a retry time; never the upstream's count or block.
    @Test func aLocalFailureKeepsTheUpstreamsCountAndBlock() throws {
        let harness = try SyncHarness()
        let database = try harness.database()
        let state = SyncStateRepository(database: database)
        let upstream = SyncStateRepository.Outcome(ok: false, httpStatus: 503, message: "HTTP 503", started: 1_000, finished: 1_001)
        try database.transaction { () throws(StoreError) in
            try state.recordFailure(source: "custom.test", url: "http://x/l", outcome: upstream, retryAfter: 9_000, nextDue: 9_000)
            try state.recordFailure(source: "custom.test", url: "http://x/l", outcome: upstream, retryAfter: 9_000, nextDue: 9_000)
        }
        let local = SyncStateRepository.Outcome(ok: false, httpStatus: nil, message: "store: disk full", started: 2_000, finished: 2_000)
        try database.transaction { () throws(StoreError) in try state.recordLocalFailure(source: "custom.test", url: "http://x/l", outcome: local, nextDue: 2_300) }
        let recorded = try harness.state("custom.test")
        #expect(recorded.failures == 2)
        #expect(recorded.retryAfter == 9_000)
        #expect(recorded.error == "store: disk full")
    }
}
