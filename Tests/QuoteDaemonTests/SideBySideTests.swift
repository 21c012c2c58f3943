import QuoteConfig
@testable import QuoteDaemon
import QuoteScheduling
import QuoteSystem
import QuoteSystemTasks
import Synchronization
import Testing
import TestSupport

/// A runner whose syncs last until the test lets them end, and which counts how many run at once.
final class GatedRunner: SyncRunner {
    private struct Counts {
        var running = 0
        var most = 0
        var started: [String] = []
    }

    private let counts = Mutex(Counts())
    private let isOpen = Mutex(false)

    var running: Int { counts.withLock { $0.running } }
    var most: Int { counts.withLock { $0.most } }
    var started: [String] { counts.withLock { $0.started } }

    func open() { isOpen.withLock { $0 = true } }

    func sync(_ settings: SourceSettings, configuration: Configuration,
              progress: @escaping @Sendable (String) -> Void) async -> SourceReport {
        counts.withLock { counts in
            counts.running += 1
            counts.most = max(counts.most, counts.running)
            counts.started.append(settings.name)
        }
        _ = await Waiting.until(patience: .seconds(60)) { self.isOpen.withLock { $0 } }
        counts.withLock { $0.running -= 1 }
        return SourceReport(source: settings.name, ok: true, summary: "done", seconds: 0)
    }
}

/// The daemon's first round starts every due source at once, up to its limit on syncs side by
/// side; the rest start as those end, and a sync asked for starts at once beside them.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct SideBySideTests {
    let folder = TemporaryFolder("quoted-side-by-side")
    /// Six lists on six hosts (no request is made: the runner answers), the fixed sources off.
    static let names = ["a", "b", "c", "d", "e", "f"].map { "custom.\($0)" }
    static let sixLists = names.map { "[source.\($0)]\nurl = https://\($0.dropFirst(7)).example/l.json\n" }.joined()
        + "[source.happiness]\nenabled = false\n[source.breakingbad]\nenabled = false\n[source.upbit]\nenabled = false\n"

    @Test func aFirstRoundStartsUpToTheLimitAtOnceAndASyncAskedForBesideThem() async throws {
        let configuration = try Configuration.parse(Self.sixLists, file: "q.conf")
        let runner = GatedRunner()
        let daemon = Daemon(configuration: configuration, storePath: folder.file("q.db"), runner: runner, logger: Logger(level: .error),
                            notifier: SystemdNotifier(socketPath: nil), loadConfiguration: { configuration })
        try await daemon.prepare()
        let loop = Task(executorPreference: ownThreads) { await daemon.run() }
        defer {
            runner.open()
            loop.cancel()
        }
        let limit = Daemon.maximumConcurrentSyncs
        #expect(limit < Self.names.count)
        // Every source is due at once (no spreading over seconds): the limit's worth start together
        // (and stay running until the runner opens: a stalled machine only makes them late).
        #expect(await Waiting.until(patience: .seconds(30)) { runner.running == limit }, "\(runner.started)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(runner.running == limit, "no more than the limit start by the schedule")

        // Asked for by name, a source starts at once beside them.
        let asked = try #require(Self.names.first { !runner.started.contains($0) })
        let (started, _) = await daemon.syncNow([asked], wait: true)
        let ticket = try #require(started.first?.ticket)
        #expect(await Waiting.until(patience: .seconds(5)) { runner.running == limit + 1 }, "\(runner.started)")

        runner.open()
        #expect(await daemon.report(ticket).ok)
        // The last one starts once a place is free.
        #expect(await Waiting.until(patience: .seconds(30)) { Set(runner.started) == Set(Self.names) }, "\(runner.started)")
        #expect(await Waiting.until(patience: .seconds(30)) { await daemon.runningSources.isEmpty })
        #expect(runner.most == limit + 1)
        #expect(runner.started.count == Self.names.count, "each source synced once: \(runner.started)")
    }
}
