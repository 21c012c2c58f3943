import QuoteBase
import QuoteConfig
@testable import QuoteStore
import QuoteModels
import QuoteText
@testable import QuoteSync
import Testing
import TestSupport

/// A list's body is written into the source's transaction as it arrives; the engine commits only
/// a body read whole and valid. These tests hold the all-or-nothing promise to that.
@Suite(.offThePool, .serialized, .timeLimit(.minutes(10))) struct StreamingSyncTests {
    /// The body of `count` good records, with `tail` instead of the closing bracket.
    static func body(count: Int, tail: String = "]") -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 80)
        bytes.append(UInt8(ascii: "["))
        for number in 1...count {
            if number > 1 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: #"{"id": \#(number), "text": "streamed quote \#(number)", "source": "S"}"#.utf8)
        }
        bytes.append(contentsOf: tail.utf8)
        return bytes
    }

    @Test func aBodyThatFailsAtItsLastByteAfterFiftyThousandGoodRecordsChangesNothing() async throws {
        let harness = try SyncHarness { _ in .json(listJSON([(1, "one"), (2, "two"), (3, "three")])) }
        var settings = harness.settings(.custom, path: "/list")
        settings.maxBytes = 256 << 20
        settings.timeout = 600
        #expect(await harness.sync(settings).ok)
        let before = try harness.snapshot()
        // Fifty thousand good records (a dozen times what the writer holds in flight), then a last
        // byte that is not the array's end; a million is scripts/bench's size, not a test's.
        let broken = Self.body(count: 50_000, tail: "}")
        harness.server.answer { _ in TestUpstream.Response(body: broken) }
        let report = await harness.sync(settings)
        #expect(!report.ok)
        #expect(report.summary.hasPrefix("the list is not JSON: line 1, column \(broken.count): expected ',' or ']' in an array"),
                "\(report.summary)")
        #expect(try harness.snapshot() == before)
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.test'") == 3)
        #expect(try harness.count("SELECT count(*) FROM quotes_fts WHERE quotes_fts MATCH 'streamed'") == 0)
        #expect(try harness.state("custom.test").failures == 1)
    }

    @Test func duplicatesAndBadRecordsKeepTheFirstAndTheStoredVersion() async throws {
        let harness = try SyncHarness { _ in .json(listJSON([(1, "one"), (2, "two"), (3, "three")])) }
        let settings = harness.settings(.custom, path: "/list")
        #expect(await harness.sync(settings).ok)
        harness.server.answer { _ in
            .json(#"[{"id": 1, "text": "ONE"}, {"id": 1, "text": "again"}, {"id": 2, "text": 5}, {"id": 4, "text": "four"}]"#)
        }
        let report = await harness.sync(settings)
        #expect(report.ok, "\(report.summary)")
        // 1 updated (the first of its two records), 2 kept as stored (its record is bad), 3 gone, 4 new.
        #expect(report.counts == ChangeCounts(inserted: 1, updated: 1, removed: 1, unchanged: 0, skipped: 2))
        #expect(report.summary.contains("(record 2 (id 1): duplicate id; and 1 more)"), "\(report.summary)")
        let texts = try harness.database().prepare("SELECT upstream_id || '=' || text FROM quotes WHERE source = 'custom.test' ORDER BY upstream_id")
        var rows: [String] = []
        while try texts.step() { rows.append(texts.string(0)) }
        #expect(rows == ["1=ONE", "2=two", "4=four"])
    }

    @Test func aBadRecordBeforeAGoodOneWithItsIdLetsTheGoodOneIn() async throws {
        let harness = try SyncHarness { _ in .json(listJSON([(1, "one"), (2, "two")])) }
        let settings = harness.settings(.custom, path: "/list")
        #expect(await harness.sync(settings).ok)
        harness.server.answer { _ in
            .json(#"[{"id": 1, "category": "c", "text": "one", "source": "A"}, {"id": 2, "text": ""}, {"id": 2, "text": "TWO"}]"#)
        }
        let report = await harness.sync(settings)
        #expect(report.counts == ChangeCounts(updated: 1, unchanged: 1, skipped: 1), "\(report.summary)")
        #expect(try harness.database().scalarString("SELECT text FROM quotes WHERE source = 'custom.test' AND upstream_id = '2'") == "TWO")
    }

    @Test func aRecordWithoutAReadableIdRemovesNothing() async throws {
        let harness = try SyncHarness { _ in .json(listJSON([(1, "one"), (2, "two"), (3, "three")])) }
        let settings = harness.settings(.custom, path: "/list")
        #expect(await harness.sync(settings).ok)
        harness.server.answer { _ in .json(#"[{"id": 1, "text": "one"}, {"text": "who am I"}]"#) }
        let report = await harness.sync(settings)
        #expect(report.ok)
        #expect(report.counts.removed == 0)
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.test'") == 3)
    }

    /// A body cut into many small pieces (a slow network) reads as the whole body does.
    @Test func aBodyInManySmallPiecesIsReadWhole() async throws {
        let body = Self.body(count: 3_000)
        let harness = try SyncHarness { _ in TestUpstream.Response(body: body, behaviour: .trickle(secondsPerByte: 0)) }
        var settings = harness.settings(.custom, path: "/list")
        settings.maxBytes = 64 << 20
        settings.timeout = 120
        let report = await harness.sync(settings)
        #expect(report.ok, "\(report.summary)")
        #expect(report.counts.inserted == 3_000)
        #expect(try harness.count("SELECT count(*) FROM quotes_fts WHERE quotes_fts MATCH 'streamed'") == 3_000)
        // The digest was computed on the stream: the same body again is "not modified".
        let again = await harness.sync(settings)
        #expect(again.summary == "not modified", "\(again.summary)")
    }
}

/// The writer's failure stops the transfer and rolls back: here the store's write lock is held by
/// another connection for longer than the sync's patience.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct StreamingWriterFailureTests {
    @Test func aStoreThatCannotBeWrittenStopsTheStreamAndKeepsEveryRow() async throws {
        let harness = try SyncHarness { _ in .json(listJSON([(1, "one"), (2, "two")])) }
        let settings = harness.settings(.custom, path: "/list")
        #expect(await harness.sync(settings).ok)
        let before = try harness.snapshot()
        harness.server.answer { _ in TestUpstream.Response(body: StreamingSyncTests.body(count: 50_000)) }
        let impatient = SyncEngine(storePath: harness.storePath, busyTimeoutMilliseconds: 200)
        let holder = try harness.database()
        try holder.begin()
        let report = await impatient.sync(settings)
        holder.rollback()
        #expect(!report.ok)
        #expect(report.summary.hasPrefix("store: "), "\(report.summary)")
        #expect(!report.summary.contains("\n"))
        #expect(report.storeExitCode == .temporaryFailure, "\(String(describing: report.storeExitCode))")
        #expect(try harness.snapshot() == before)
    }
}
