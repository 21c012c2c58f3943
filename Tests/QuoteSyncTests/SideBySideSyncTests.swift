import Foundation
import Glibc
import QuoteBase
import QuoteConfig
@testable import QuoteStore
import QuoteModels
@testable import QuoteSync
import QuoteSystem
import Synchronization
import Testing
import TestSupport

/// A list's network time holds no writer: while its body is in flight (stalled mid-way, its first
/// 55,000 records spooled) another connection writes the store, another process could take
/// the writer's turn, and another source of the same engine syncs and commits; the list commits
/// once its body is whole.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct SideBySideSyncTests {
    /// Lines a sync's progress said, as they came.
    final class Lines: Sendable {
        let said = Mutex<[String]>([])
        func add(_ line: String) { said.withLock { $0.append(line) } }
        func contains(_ line: String) -> Bool { said.withLock { $0.contains(line) } }
    }

    @Test func aListStalledMidBodyLetsEveryOtherWriterWrite() async throws {
        let gate = Gate()
        defer { gate.open() }
        let body = StreamingSyncTests.body(count: 60_000)
        // The bytes of the first 55,000 records (the same prefix as a 55,000-record body's).
        let stallAt = StreamingSyncTests.body(count: 55_000).count - 1
        let harness = try SyncHarness { request in
            guard request.path == "/slow" else { return .json(listJSON([(1, "quick and done")])) }
            return TestUpstream.Response(headers: [("Content-Type", "application/json")], body: body,
                                         behaviour: .stall(afterBytes: stallAt, until: gate))
        }
        var slow = harness.settings(.custom, path: "/slow", name: "custom.slow")
        slow.timeout = 120
        slow.maxBytes = 64 << 20
        // Another host's list ("localhost" is another host to HostGate, which lets one request at
        // a time reach each): the slow list's transfer holds 127.0.0.1's.
        var quick = harness.settings(.custom, path: "/quick", name: "custom.quick")
        quick.url = quick.url.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        #expect(await harness.sync(quick).ok)
        let lines = Lines()
        let engine = harness.engine
        let slowSettings = slow
        let slowSync = Task(executorPreference: ownThreads) { await engine.sync(slowSettings, progress: { lines.add($0) }) }
        // The body stalled mid-way: 55,000 records spooled, the rest still in flight.
        #expect(await Waiting.until(patience: .seconds(60)) { gate.reached }, "the body never reached its stall")
        #expect(!lines.contains("writing to the store"))

        // Another connection takes SQLite's write lock at once and commits.
        let other = try Database(path: harness.storePath, mode: .readWrite, busyTimeoutMilliseconds: 200)
        try other.execute("BEGIN IMMEDIATE")
        try other.execute("UPDATE sources SET configured = configured WHERE name = 'custom.quick'")
        try other.execute("COMMIT")
        // Another process could take the writer's turn.
        #expect(try anotherProcessCanLock(WriterTurn.lockPath(of: harness.storePath)))
        // Another source of this engine takes this process's turn and commits.
        harness.server.answer { request in
            guard request.path == "/slow" else { return .json(listJSON([(1, "quick and done"), (2, "and again")])) }
            return TestUpstream.Response(headers: [("Content-Type", "application/json")], body: body,
                                         behaviour: .stall(afterBytes: stallAt, until: gate))
        }
        let meanwhile = await engine.sync(quick)
        #expect(meanwhile.ok, "\(meanwhile.summary)")
        #expect(meanwhile.counts.inserted == 1)
        // Readers see none of the list yet.
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.slow'") == 0)

        gate.open()
        let report = await slowSync.value
        #expect(report.ok, "\(report.summary)")
        #expect(report.counts.inserted == 60_000)
        #expect(lines.contains("50000 quotes read and written"))
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.slow'") == 60_000)
        #expect(try harness.count("SELECT count(*) FROM quotes_fts WHERE quotes_fts MATCH 'streamed'") == 60_000)
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.quick'") == 2)
    }

    /// A transfer that fails mid-body (the server closes the connection) leaves every stored row
    /// as it was; the spooled bytes go with the failed sync.
    @Test func aListCutMidBodyChangesNothing() async throws {
        let harness = try SyncHarness { _ in .json(listJSON([(1, "one"), (2, "two")])) }
        var settings = harness.settings(.custom, path: "/list")
        settings.maxBytes = 64 << 20
        settings.timeout = 120
        #expect(await harness.sync(settings).ok)
        let before = try harness.snapshot()
        let body = StreamingSyncTests.body(count: 30_000)
        harness.server.answer { _ in TestUpstream.Response(body: body, behaviour: .truncate(afterBytes: body.count / 2)) }
        let report = await harness.sync(settings)
        #expect(!report.ok)
        #expect(try harness.snapshot() == before)
        #expect(try harness.state("custom.test").failures == 1)
        // The spool had no name: nothing of it is left beside the store.
        let left = try FileManager.default.contentsOfDirectory(atPath: harness.folder).filter { !$0.hasPrefix("quotes.db") }
        #expect(left.isEmpty, "\(left)")
    }

    /// A body of another kind (an HTML page at a typo's URL) is refused at its first chunk, before
    /// the rest is downloaded and spooled, and changes nothing.
    @Test func aBodyOfAnotherKindStopsAtItsFirstChunk() async throws {
        let harness = try SyncHarness { _ in .json(listJSON([(1, "one"), (2, "two")])) }
        var settings = harness.settings(.custom, path: "/list")
        settings.maxBytes = 64 << 20
        #expect(await harness.sync(settings).ok)
        let before = try harness.snapshot()
        let page = "<!DOCTYPE html><html><body>" + String(repeating: "<p>not a list</p>", count: 500_000) + "</body></html>"
        harness.server.answer { _ in TestUpstream.Response(headers: [("Content-Type", "application/json")], body: Array(page.utf8)) }
        let report = await harness.sync(settings)
        #expect(!report.ok)
        #expect(report.summary.contains("the list is"), "\(report.summary)")
        #expect(report.fetchedBytes < page.utf8.count / 4, "\(report.fetchedBytes) of \(page.utf8.count) bytes read")
        #expect(try harness.snapshot() == before)
    }
}

/// A spool that cannot be written is the store's failure, said as the store's: a full disk as
/// "disk full" (exit 75, tried again), a folder that takes no file as read-only, naming it.
@Suite struct SpoolFailureTests {
    @Test func aSpoolsErrnoIsTheStoresFailure() {
        #expect(ListLoader.spoolFailure(Errno(ENOSPC), folder: "/var/lib/quoted") == .full(path: "/var/lib/quoted"))
        #expect(ListLoader.spoolFailure(Errno(EDQUOT), folder: "/q") == .full(path: "/q"))
        guard case .readOnly(let path, _) = ListLoader.spoolFailure(Errno(EROFS), folder: "/q") else {
            Issue.record("EROFS is no read-only folder")
            return
        }
        #expect(path == "/q")
        let other = ListLoader.spoolFailure(Errno(EIO), folder: "/q")
        #expect(SourceFailure.local(other).message.hasPrefix("store: "), "\(other)")
        #expect("\(other)".contains("/q"))
    }
}
