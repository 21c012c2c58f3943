import Foundation
import QuoteConfig
@testable import QuoteDaemon
import QuoteScheduling
@testable import QuoteStore
import QuoteModels
import QuoteText
import QuoteSystem
import QuoteSystemTasks
import Synchronization
import Testing
import TestSupport

/// A runner whose one sync lasts until the test releases it, or until it is cancelled, and
/// which says how it ended.
final class HeldRunner: SyncRunner {
    private let state = Mutex((running: false, released: false, outcomes: [String]()))

    var isRunning: Bool { state.withLock { $0.running } }
    var outcomes: [String] { state.withLock { $0.outcomes } }
    func release() { state.withLock { $0.released = true } }

    func sync(_ settings: SourceSettings, configuration: Configuration,
              progress: @escaping @Sendable (String) -> Void) async -> SourceReport {
        state.withLock { $0.running = true }
        var finished = false
        while !Task.isCancelled {
            if state.withLock({ $0.released }) { finished = true; break }
            try? await Task.sleep(for: .milliseconds(10))
        }
        state.withLock { $0.outcomes.append(finished ? "finished" : "cancelled") }
        return SourceReport(source: settings.name, ok: finished, summary: finished ? "done" : "cancelled", seconds: 0)
    }
}

/// The daemon's edges found on review: signals that cannot be heard, a sync asked for while
/// stopping, a store that makes start-up wait, a stop that lets running syncs finish.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct DaemonEdgeTests {
    let folder = TemporaryFolder("quoted-edges")
    /// One custom list (on a port nothing answers), the fixed sources off.
    static let oneList = """
        [source.custom.x]
        url = http://127.0.0.1:9/l.json
        [source.happiness]
        enabled = false
        [source.breakingbad]
        enabled = false
        [source.upbit]
        enabled = false
        """

    func daemon(_ runner: any SyncRunner, busyTimeout: Int32 = Store.defaultBusyTimeout) throws -> Daemon {
        let configuration = try Configuration.parse(Self.oneList, file: "q.conf")
        return Daemon(configuration: configuration, storePath: folder.file("q.db"), runner: runner, logger: Logger(level: .error),
                      notifier: SystemdNotifier(socketPath: nil), loadConfiguration: { configuration },
                      storeBusyTimeout: busyTimeout)
    }

    @Test func signalHandlersThatCannotBeSetAreAnError() {
        #expect(throws: Signals.InstallError.self) { try Signals.install([9_999]) }
    }

    /// A signal stream that ends without SIGTERM must not look like a clean stop.
    @Test func aLostSignalStreamIsNotACleanStop() async throws {
        let daemon = try daemon(ScriptedRunner())
        try await daemon.prepare()
        let (signals, continuation) = AsyncStream<Int32>.makeStream()
        continuation.finish()
        #expect(await daemon.run(signals: signals) == .signalsLost)
        let (stopSignals, stop) = AsyncStream<Int32>.makeStream()
        stop.yield(SIGTERM)
        #expect(await daemon.run(signals: stopSignals) == .signal(SIGTERM))
    }

    /// A `sync --wait` that arrives after the scheduler has stopped is answered, not left waiting.
    @Test func aSyncAskedForAfterTheStopIsAnswered() async throws {
        let daemon = try daemon(ScriptedRunner())
        try await daemon.prepare()
        let (signals, continuation) = AsyncStream<Int32>.makeStream()
        continuation.yield(SIGTERM)
        _ = await daemon.run(signals: signals)
        let (started, _) = await daemon.syncNow(["custom.x"], wait: true)
        let ticket = try #require(started.first?.ticket)
        let report = await daemon.report(ticket)
        #expect(!report.ok && report.summary == "cancelled: the daemon is stopping")
    }

    /// A client waiting for a sync that hangs up (its request's task is cancelled) stops waiting
    /// at once: its ticket goes, and the sync it asked for is still to run.
    @Test func aWaitingClientThatLeavesDropsItsTicketButNotItsSync() async throws {
        let daemon = try daemon(ScriptedRunner())
        try await daemon.prepare()
        let (started, _) = await daemon.syncNow(["custom.x"], wait: true)
        let ticket = try #require(started.first?.ticket)
        let waiting = Task(executorPreference: ownThreads) { await daemon.report(ticket) }
        #expect(await Waiting.until { await daemon.waiters.isWaiting(ticket) })
        waiting.cancel()
        let report = await waiting.value
        #expect(!report.ok && report.summary == "cancelled: the client left", "\(report.summary)")
        #expect(await daemon.tickets.isEmpty)
        #expect(await daemon.sourceState("custom.x").requested)
        // Already cancelled before it waits: the same.
        let (again, _) = await daemon.syncNow(["custom.x"], wait: true)
        let second = try #require(again.first?.ticket)
        let early = Task(executorPreference: ownThreads) {
            withUnsafeCurrentTask { $0?.cancel() }
            return await daemon.report(second)
        }
        #expect(await early.value.summary == "cancelled: the client left")
        #expect(await daemon.tickets.isEmpty)
    }

    /// A stop lets a sync that is nearly done finish (its report is its own), within the grace.
    @Test func aStopLetsARunningSyncFinishWithinTheGrace() async throws {
        // The sync runs until the test lets it end — once the daemon is stopping — so that a
        // stall of a loaded machine cannot end it before the stop, or unseen (only one longer
        // than the grace could still cancel it, and the test would say so).
        let runner = HeldRunner()
        let daemon = try daemon(runner)
        try await daemon.prepare()
        let (signals, continuation) = AsyncStream<Int32>.makeStream()
        let loop = Task(executorPreference: ownThreads) { await daemon.run(signals: signals) }
        let (started, _) = await daemon.syncNow(["custom.x"], wait: true)
        let ticket = try #require(started.first?.ticket)
        async let report = daemon.report(ticket)
        #expect(await Waiting.until(patience: .seconds(60)) { runner.isRunning }, "the sync never started")
        continuation.yield(SIGTERM)
        #expect(await Waiting.until(patience: .seconds(60)) { await daemon.state == .stopping }, "the daemon never began to stop")
        // Stopping, the daemon waits for the sync: it has not cancelled it.
        try await Task.sleep(for: .milliseconds(200))
        #expect(runner.outcomes.isEmpty)
        runner.release()
        #expect(await loop.value == .signal(SIGTERM))
        #expect(await report.ok, "the sync finished within the grace instead of being cancelled")
        #expect(runner.outcomes == ["finished"])
    }

    /// Start-up waits for a store another process holds locked on a thread of its own: the
    /// actor keeps answering meanwhile (a status request is not queued behind SQLite).
    @Test func startUpDoesNotBlockTheActorOnTheStore() async throws {
        let daemon = try daemon(ScriptedRunner(), busyTimeout: 30_000)
        _ = try Store(path: folder.file("q.db"), access: .write)  // the store exists
        let locker = try Database(path: folder.file("q.db"), mode: .readWrite)
        try locker.execute("BEGIN IMMEDIATE")
        let done = Mutex(false)
        let preparing = Task(executorPreference: ownThreads) {
            try await daemon.prepare()
            done.withLock { $0 = true }
        }
        // prepare() has opened the store (a second descriptor on it, beside the locker's): it
        // waits for the lock on its thread from here on. Its task may start late when the other
        // suites keep both cooperative threads busy: the patience bounds a hang, not the event.
        let storePath = folder.file("q.db")
        #expect(await BlockingWork.perform { Waiting.blockingUntil(patience: .seconds(60)) { Waiting.descriptors(openOn: storePath) >= 2 } },
                "start-up never opened the store")
        _ = await daemon.statusReplies()
        #expect(!done.withLock { $0 }, "the status answer came while start-up still waited for the store")
        try locker.execute("COMMIT")
        try await preparing.value
        #expect(done.withLock { $0 })
    }
}
