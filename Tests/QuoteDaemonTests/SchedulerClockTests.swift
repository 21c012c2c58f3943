import Foundation
import Glibc
import QuoteConfig
@testable import QuoteDaemon
import QuoteScheduling
import QuoteStore
import QuoteModels
import QuoteText
import QuoteSystem
import QuoteSystemTasks
import Synchronization
import Testing
import TestSupport

/// A runner that counts its syncs; each ends at once, or — `stuck` on a clock the test never
/// moves an hour — only when cancelled.
final class CountingRunner: SyncRunner {
    let stuck: (any SleepingClock)?
    private let state = Mutex<(started: Int, outcomes: [String])>((0, []))

    init(stuck: (any SleepingClock)? = nil) { self.stuck = stuck }

    var started: Int { state.withLock { $0.started } }
    var outcomes: [String] { state.withLock { $0.outcomes } }

    func sync(_ settings: SourceSettings, configuration: Configuration,
              progress: @escaping @Sendable (String) -> Void) async -> SourceReport {
        state.withLock { $0.started += 1 }
        var finished = true
        if let stuck { finished = (try? await stuck.sleep(for: .seconds(3_600))) != nil }
        state.withLock { $0.outcomes.append(finished ? "finished" : "cancelled") }
        return SourceReport(source: settings.name, ok: finished, summary: finished ? "done" : "cancelled", seconds: 0)
    }
}

/// The scheduler on a clock the test moves: a source comes due after its interval, a stop
/// waits its grace — hours and seconds crossed without waiting them out.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct SchedulerClockTests {
    let folder = TemporaryFolder("quoted-scheduler")
    let clock = ManualClock()
    let wall = WallTime(1_800_000_000)

    func daemon(_ runner: any SyncRunner) throws -> Daemon {
        let configuration = try Configuration.parse(DaemonEdgeTests.oneList.replacingOccurrences(of: "l.json\n", with: "l.json\ninterval = 1h\n"), file: "q.conf")
        let wall = self.wall
        return Daemon(configuration: configuration, storePath: folder.file("q.db"), runner: runner, logger: Logger(level: .error),
                      notifier: SystemdNotifier(socketPath: nil), loadConfiguration: { configuration },
                      wallClock: { wall.now }, clock: clock)
    }

    /// Moves both clocks together, as real time passing does.
    func pass(_ seconds: Int) {
        wall.advance(by: seconds)
        clock.advance(by: .seconds(seconds))
    }

    /// Start-up's first syncs come within their second of jitter: moves time until the first has started.
    func untilTheFirstSync(_ runner: CountingRunner) async {
        for _ in 0..<60 {
            await settle { runner.started > 0 || clock.sleeperCount > 0 }
            if runner.started > 0 { return }
            pass(1)
        }
    }

    /// Waits for the daemon's tasks to catch up with what the test did: looks until `condition`
    /// holds (or a second has passed: the callers then check what did happen).
    func settle(until condition: () -> Bool) async {
        _ = await Waiting.until(patience: .seconds(1)) { condition() }
    }

    @Test func aSourceIsSyncedAgainWhenItsIntervalHasPassed() async throws {
        let runner = CountingRunner()
        let daemon = try daemon(runner)
        try await daemon.prepare()
        let loop = Task(executorPreference: ownThreads) { await daemon.run() }
        defer { loop.cancel() }
        await untilTheFirstSync(runner)
        #expect(runner.started == 1, "never synced at start-up")
        // Due one interval (1 h ± 10 %) later: not before 54 min, by 66 min.
        var minutes = 0
        while runner.started == 1 && minutes < 70 {
            #expect(await clock.waitForSleepers(1), "the scheduler is not asleep on the clock")
            pass(60)
            minutes += 1
            await settle { runner.started > 1 || clock.sleeperCount > 0 }
        }
        await settle { runner.started == 2 }
        #expect(runner.started == 2)
        #expect((54...66).contains(minutes), "synced again after \(minutes) min")
    }

    @Test func aStopWaitsItsGraceThenStopsWhatStillRuns() async throws {
        let runner = CountingRunner(stuck: clock)
        let daemon = try daemon(runner)
        try await daemon.prepare()
        let (signals, continuation) = AsyncStream<Int32>.makeStream()
        let ended = Atomic(false)
        let loop = Task(executorPreference: ownThreads) {
            let stop = await daemon.run(signals: signals)
            ended.store(true, ordering: .releasing)
            return stop
        }
        await untilTheFirstSync(runner)
        #expect(runner.started == 1)
        continuation.yield(SIGTERM)
        // The stuck sync and the stop's grace sleep on the clock (the scheduler does not: nothing else is due).
        await settle { clock.sleeperCount == 2 }
        // The grace waits in short sleeps on the clock: after 4 s, it must go back to sleep
        // (two sleepers again) rather than end the stop.
        pass(4)
        await settle { clock.sleeperCount == 2 || ended.load(ordering: .acquiring) }
        let early = ended.load(ordering: .acquiring)
        #expect(!early, "stopped before the grace was over")
        pass(1)
        #expect(await loop.value == .signal(SIGTERM))
        #expect(runner.outcomes == ["cancelled"])
    }
}

/// Unix time the test sets.
final class WallTime: Sendable {
    private let value: Mutex<Int>
    init(_ start: Int) { value = Mutex(start) }
    var now: Int { value.withLock { $0 } }
    func advance(by seconds: Int) { value.withLock { $0 += seconds } }
}
