import Foundation
import QuoteConfig
@testable import QuoteDaemon
import QuoteScheduling
@testable import QuoteStore
import QuoteModels
import QuoteText
import QuoteSystem
import QuoteSync
import Testing
import TestSupport

/// The daemon in-process, with an injected wall clock and syncs that run through the engine.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct DaemonTests {
    let temporary = TemporaryFolder("quoted-daemon")
    var folder: String { temporary.path }
    var storePath: String { folder + "/quotes.db" }
    let now = 1_900_000_000

    init() throws {
    }

    func configuration(_ text: String) throws -> Configuration {
        try Configuration.parse(text, file: folder + "/quoted.conf")
    }

    func daemon(_ configuration: Configuration, reload: @escaping @Sendable () throws -> Configuration = { try Configuration.parse("[nonsense]", file: "bad.conf") }) -> Daemon {
        let now = self.now
        return Daemon(configuration: configuration, storePath: storePath,
                      runner: EngineRunner(engine: SyncEngine(storePath: storePath)), logger: Logger(level: .error),
                      notifier: SystemdNotifier(socketPath: nil), loadConfiguration: reload, wallClock: { now })
    }

    func nextDue(_ daemon: Daemon) async -> [String: Int] {
        var due: [String: Int] = [:]
        for reply in await daemon.statusReplies() where reply.kind == "source" {
            let object = try? JSONParser.parse(reply.text)
            if let name = object?["source"]?.string, let next = object?["next_due"]?.int { due[name] = next }
        }
        return due
    }

    @Test func aRestartCatchesUpOnOverdueSourcesAndKeepsTheOthersClocks() async throws {
        // A store as a previous run left it: upbit due in 20 minutes, happiness overdue by a day.
        let store = try Store(path: storePath, access: .write)
        try store.database.begin()
        do {  // raw SQL (DatabaseError) beside store writes: BEGIN and COMMIT by hand
            let writer = QuoteWriter(database: store.database)
            try writer.ensureSource("upbit", now: now)
            try writer.ensureSource("happiness", now: now)
            try store.database.execute("INSERT INTO sync_state (source, next_due, last_success) VALUES ('upbit', ?1, ?2)",
                                   [.integer(now + 1_200), .integer(now - 2_400)])
            try store.database.execute("INSERT INTO sync_state (source, next_due, last_success) VALUES ('happiness', ?1, ?2)",
                                   [.integer(now - 86_400), .integer(now - 2 * 86_400)])
        }
        try store.database.commit()
        let daemon = daemon(try configuration("[source.breakingbad]\nenabled = false\n"))
        try await daemon.prepare()
        let due = await nextDue(daemon)
        #expect(due["upbit"] == now + 1_200, "a future due time survives the restart")
        #expect((now...(now + 10)).contains(due["happiness"] ?? -1), "an overdue source is caught up at once")
        #expect(due["breakingbad"] == nil, "a disabled source is not scheduled")
    }

    @Test func aBadReloadKeepsTheRunningConfiguration() async throws {
        let daemon = daemon(try configuration("[source.breakingbad]\nenabled = false\n"))
        try await daemon.prepare()
        let before = await daemon.statusReplies().filter { $0.kind == "source" }.count
        let result = await daemon.reload()
        guard case .failure = result else { Issue.record("the reload should have failed"); return }
        #expect(await daemon.statusReplies().filter { $0.kind == "source" }.count == before)
    }

    @Test func aGoodReloadSchedulesNewSources() async throws {
        let server = try TestUpstream { _ in .json(#"[{"id": 1, "text": "x"}]"#) }
        let text = "[source.custom.fresh]\nurl = \(server.baseURL)/l\ninterval = 10s\n"
        let fresh = try configuration(text)
        let daemon = daemon(try configuration("[source.upbit]\nenabled = false\n"), reload: { fresh })
        try await daemon.prepare()
        #expect(await nextDue(daemon)["custom.fresh"] == nil)
        guard case .success = await daemon.reload() else { Issue.record("the reload should have worked"); return }
        #expect((now...(now + 10)).contains(await nextDue(daemon)["custom.fresh"] ?? -1))
        // An on-demand sync runs it, and a second request while it runs joins it.
        let loop = Task(executorPreference: ownThreads) { await daemon.run() }
        defer { loop.cancel() }
        let (started, unknown) = await daemon.syncNow(["custom.fresh", "custom.nope"], wait: true)
        #expect(unknown == ["custom.nope"])
        let report = await daemon.report(started[0].ticket!)
        #expect(report.ok, "\(report.summary)")
        #expect(report.counts.inserted == 1)
    }

    /// Values that used to trap the daemon on SIGHUP are refused; it keeps running as it was.
    @Test(arguments: ["max_bytes = 8589934592G", "interval = 9223372036854775807s", "pause = 46116860184273s", "pause = 100000h"])
    func aReloadWithAnOutOfRangeValueKeepsRunning(line: String) async throws {
        let section = line.hasPrefix("pause") ? "source.breakingbad" : "source.upbit"
        let path = folder + "/quoted.conf"
        try "[\(section)]\n\(line)\n".write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = daemon(try configuration(""), reload: { try Configuration.load(path: path) })
        try await daemon.prepare()
        let result = await daemon.reload()
        guard case .failure(let error) = result else { Issue.record("\(line) was accepted"); return }
        #expect("\(error)".hasPrefix(path + ":2: "), "\(error)")
        #expect(await daemon.statusReplies().first?.kind == "daemon")
    }
}

/// A runner that reports progress, then a result: what a child sync does, without a child.
struct ScriptedRunner: SyncRunner {
    func sync(_ settings: SourceSettings, configuration: Configuration,
              progress: @escaping @Sendable (String) -> Void) async -> SourceReport {
        progress("receiving 1.0 of 2.0 MB")
        progress("writing 5 of 10 quotes")
        return SourceReport(source: settings.name, ok: true, summary: "10 quotes, 10 changed", seconds: 0.1)
    }
}

@Suite(.offThePool, .timeLimit(.minutes(5))) struct ProgressRelayTests {
    /// A client waiting on a sync hears its progress lines before its result.
    @Test func progressReachesTheClientBeforeTheResult() async throws {
        let folder = TemporaryFolder("quoted-relay")
        let configuration = try Configuration.parse(DaemonEdgeTests.oneList, file: "q.conf")
        let daemon = Daemon(configuration: configuration, storePath: folder.file("q.db"), runner: ScriptedRunner(),
                            logger: Logger(level: .error), notifier: SystemdNotifier(socketPath: nil),
                            loadConfiguration: { configuration })
        try await daemon.prepare()
        let loop = Task(executorPreference: ownThreads) { await daemon.run() }
        defer { loop.cancel() }
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { close(ends[1]) }
        await daemon.handle(.sync(sources: ["custom.x"], wait: true), ReplyWriter(connection: FileDescriptor(adopting: ends[0])))
        var received = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = recv(ends[1], &chunk, chunk.count, 0)
            if count <= 0 { break }
            received += chunk[0..<count]
        }
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
        let progress = lines.firstIndex(of: "progress custom.x writing 5 of 10 quotes")
        let result = lines.firstIndex { $0.hasPrefix("ok custom.x: 10 quotes") }
        #expect(progress != nil && result != nil && progress! < result!, "\(lines)")
        #expect(lines.last == "end 0")
    }
}
