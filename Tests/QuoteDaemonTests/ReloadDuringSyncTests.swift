import Foundation
import QuoteConfig
import QuoteControl
@testable import QuoteDaemon
@testable import QuoteStore
import QuoteSync
import QuoteSystem
import QuoteSystemTasks
import Synchronization
import Testing
import TestSupport

/// A reload never waits on the store: it applies the configuration and answers at once, even while
/// a list's sync runs (its body stalled mid-way: it holds no write lock meanwhile) or another
/// connection holds the store's write lock; which custom lists are configured is marked in the
/// store afterwards, once every sync started under the older configuration has ended and the
/// store is free. A stop never waits for that marking.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ReloadDuringSyncTests {
    let temporary = TemporaryFolder("quoted-reload-sync")
    var storePath: String { temporary.path + "/quotes.db" }
    static let fixedSourcesOff = "[source.happiness]\nenabled = false\n[source.breakingbad]\nenabled = false\n[source.upbit]\nenabled = false\n"

    func configuration(_ text: String) throws -> Configuration {
        try Configuration.parse(text + Self.fixedSourcesOff, file: temporary.path + "/quoted.conf")
    }

    /// A logger whose lines the test reads.
    static func logger(_ lines: JournalTests.Lines) -> Logger {
        Logger(level: .info, journal: true, write: { line in lines.written.withLock { $0.append(line) } }, journalSocket: nil)
    }

    /// 600 records, and how many bytes of them hold the first 560 (more than a batch of 512: the
    /// list's staging is open once they are in).
    static func slowList() -> (body: [UInt8], stallAt: Int) {
        let records = (1...600).map { #"{"id": \#($0), "text": "Slow quote number \#($0)"}"# }
        let first = "[" + records[..<560].joined(separator: ", ")
        return (Array((first + ", " + records[560...].joined(separator: ", ") + "]").utf8), first.utf8.count)
    }

    /// Another connection would have to wait for the store's write lock.
    static func writeLockIsHeld(_ path: String) -> Bool {
        guard let probe = try? Database(path: path, mode: .readWrite, busyTimeoutMilliseconds: 0) else { return false }
        do throws(DatabaseError) {
            try probe.execute("BEGIN IMMEDIATE")
        } catch {
            return error.resultCode == .busy
        }
        try? probe.execute("ROLLBACK")
        return false
    }

    static func configured(_ source: String, in path: String) throws -> Int? {
        try Database(path: path, mode: .readOnly).scalarInt("SELECT configured FROM sources WHERE name = ?1", [.text(source)])
    }

    static func quotes(of source: String, in path: String) throws -> Int? {
        try Database(path: path, mode: .readOnly).scalarInt("SELECT count(*) FROM quotes WHERE source = ?1", [.text(source)])
    }

    /// Custom lists the store knows as synced and configured, the way syncs leave them.
    func seedLists(_ names: [String]) throws {
        let store = try Store(path: storePath, access: .write)
        try store.write { (transaction) throws(StoreError) in
            for name in names { try transaction.quotes.ensureSource(name, url: "http://127.0.0.1:9/\(name).json", now: 1) }
        }
    }

    /// Every reply line the daemon sends for `request`.
    static func ask(_ request: ControlRequest, of daemon: Daemon) async -> [String] {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { return [] }
        defer { close(ends[1]) }
        await daemon.handle(request, ReplyWriter(connection: FileDescriptor(adopting: ends[0])))
        var received = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = recv(ends[1], &chunk, chunk.count, 0)
            if count <= 0 { break }
            received += chunk[0..<count]
        }
        return String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The issue's case: a list stalled mid-body; `reload` is answered with success while that sync
    /// still runs, status answers and says the marking is pending, and once the sync ends the list
    /// the reload removed is marked as no longer configured — after its own sync, which would
    /// otherwise mark it anew — and the list it added is synced on schedule. The stalled list
    /// holds no write lock meanwhile: its records are staged outside the store's locks.
    @Test func aReloadAnswersAtOnceWhileAListSyncHoldsTheStore() async throws {
        let gate = Gate()
        defer { gate.open() }
        let (body, stallAt) = Self.slowList()
        let server = try TestUpstream { request in
            guard request.path == "/slow.json" else { return .json(#"[{"id": 1, "text": "An added list, synced on schedule"}]"#) }
            return TestUpstream.Response(headers: [("Content-Type", "application/json; charset=utf-8")], body: body,
                                         behaviour: .stall(afterBytes: stallAt, until: gate))
        }
        let first = try configuration("[source.custom.slow]\nurl = \(server.baseURL)/slow.json\ntimeout = 120s\n")
        let second = try configuration("[source.custom.added]\nurl = \(server.baseURL)/added.json\n")
        let lines = JournalTests.Lines()
        let storePath = self.storePath
        let daemon = Daemon(configuration: first, storePath: storePath, runner: EngineRunner(engine: SyncEngine(storePath: storePath)),
                            logger: Self.logger(lines), notifier: SystemdNotifier(socketPath: nil), loadConfiguration: { second })
        try await daemon.prepare()
        let (started, _) = await daemon.syncNow(["custom.slow"], wait: true)
        let ticket = try #require(started.first?.ticket)
        let loop = Task(executorPreference: ownThreads) { await daemon.run() }
        defer { loop.cancel() }
        async let report = daemon.report(ticket)
        #expect(await Waiting.until(patience: .seconds(60)) { gate.reached }, "the list's body never began")
        // A second of the stall (its first 512 records staged): the store's write lock stays free.
        for _ in 0..<10 {
            #expect(!Self.writeLockIsHeld(storePath), "a stalled list holds the store's write lock")
            try await Task.sleep(for: .milliseconds(100))
        }

        let answer = await Self.ask(.reload, of: daemon)
        #expect(answer == ["ok reloaded: 1 source enabled; the store marks which lists are configured once the running sync of custom.slow ends",
                           "end 0"], "\(answer)")
        #expect(await daemon.sourceState("custom.slow").running, "the reload was answered while the list's sync still ran")
        #expect(gate.reached, "the body was held back mid-way")
        let status = await daemon.statusReplies()
        #expect(status.first?.text.contains(#""lists_pending":true"#) == true, "\(status.first?.text ?? "")")
        #expect(status.filter { $0.kind == "source" }.map(\.text).contains { $0.contains(#""source":"custom.added""#) })

        gate.open()
        let finished = await report
        #expect(finished.ok, "\(finished.summary)")
        #expect(await Waiting.until(patience: .seconds(60)) { await daemon.listMarkingPending == false })
        #expect(try Self.configured("custom.slow", in: storePath) == 0, "a list removed while it synced is marked after its sync")
        #expect(await Waiting.until(patience: .seconds(60)) { (try? Self.quotes(of: "custom.added", in: storePath)) == 1 },
                "the added list is synced on schedule")
        #expect(lines.withLock { $0 }.contains("<6>reload: the store marks the configured custom lists (custom.added)\n"),
                "\(lines.withLock { $0 })")
    }

    /// Another connection holds the store's write lock and no sync runs: two reloads in a row are
    /// both applied at once, and the store gets the last one's marks once the lock is free.
    @Test func reloadsWhileTheStoreIsLockedApplyAtOnceAndTheLastOnesMarksFollow() async throws {
        try seedLists(["custom.a", "custom.b"])
        let list = { (name: String) in "[source.custom.\(name)]\nurl = http://127.0.0.1:9/\(name).json\nenabled = false\n" }
        let onlyB = try configuration(list("b")), onlyA = try configuration(list("a"))
        let next = Mutex(onlyB)
        let lines = JournalTests.Lines()
        let daemon = Daemon(configuration: try configuration(list("a") + list("b")), storePath: storePath, runner: ScriptedRunner(),
                            logger: Self.logger(lines), notifier: SystemdNotifier(socketPath: nil),
                            loadConfiguration: { next.withLock { $0 } }, storeBusyTimeout: 500)
        try await daemon.prepare()
        let holder = try Database(path: storePath, mode: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        guard case .success = await daemon.reload() else { Issue.record("a reload waited on the store and failed"); return }
        next.withLock { $0 = onlyA }
        guard case .success = await daemon.reload() else { Issue.record("a reload waited on the store and failed"); return }
        #expect(await daemon.statusReplies().filter { $0.kind == "source" && $0.text.contains("custom.") }.count == 1)
        #expect(await daemon.listMarkingPending)

        let loop = Task(executorPreference: ownThreads) { await daemon.run() }
        defer { loop.cancel() }
        #expect(await Waiting.until(patience: .seconds(60)) {
            lines.withLock { $0 }.contains { $0.hasPrefix("<6>reload: marking the configured custom lists waits for the store: ") }
        }, "\(lines.withLock { $0 })")
        #expect(try Self.configured("custom.b", in: storePath) == 1, "nothing is marked while the store is locked")
        try holder.execute("ROLLBACK")
        #expect(await Waiting.until(patience: .seconds(60)) { await daemon.listMarkingPending == false })
        #expect(try Self.configured("custom.a", in: storePath) == 1)
        #expect(try Self.configured("custom.b", in: storePath) == 0, "the last reload's lists are the ones marked")
    }

    /// A stop while the marking waits for a store another connection holds ends at once: the
    /// marking is left to the next start, and says so.
    @Test func aStopDoesNotWaitForTheListsMarking() async throws {
        try seedLists(["custom.a", "custom.b"])
        let list = { (name: String) in "[source.custom.\(name)]\nurl = http://127.0.0.1:9/\(name).json\nenabled = false\n" }
        let onlyA = try configuration(list("a"))
        let lines = JournalTests.Lines()
        let daemon = Daemon(configuration: try configuration(list("a") + list("b")), storePath: storePath, runner: ScriptedRunner(),
                            logger: Self.logger(lines), notifier: SystemdNotifier(socketPath: nil),
                            loadConfiguration: { onlyA }, storeBusyTimeout: 500)
        try await daemon.prepare()
        let holder = try Database(path: storePath, mode: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        guard case .success = await daemon.reload() else { Issue.record("a reload waited on the store and failed"); return }
        let (signals, continuation) = AsyncStream<Int32>.makeStream()
        let loop = Task(executorPreference: ownThreads) { await daemon.run(signals: signals) }
        #expect(await Waiting.until(patience: .seconds(60)) {
            lines.withLock { $0 }.contains { $0.hasPrefix("<6>reload: marking the configured custom lists waits for the store: ") }
        }, "\(lines.withLock { $0 })")
        continuation.yield(SIGTERM)
        // The lock is still held: a stop that waited for the marking would never end.
        #expect(await loop.value == .signal(SIGTERM))
        try holder.execute("ROLLBACK")
        #expect(try Self.configured("custom.b", in: storePath) == 1)
        #expect(lines.withLock { $0 }.contains("<6>stopping: the last reload's custom lists were not marked in the store; the next start marks them\n"),
                "\(lines.withLock { $0 })")
    }
}
