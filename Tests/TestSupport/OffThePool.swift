// Testing is there only where tests are built: a release build of the package builds this
// target too, without it.
#if canImport(Testing)
import Glibc
import QuoteSystem
import Testing

/// Runs a test's jobs on threads of their own instead of Swift's cooperative pool (two threads
/// on a two-core machine). End-to-end tests wait for processes, sockets and files in plain
/// synchronous calls, fuzz tests compute for seconds, a million-record stream runs for minutes;
/// on the pool, two such tests at once would stall every other test of the run (measured: a 60 ms
/// engine test took 22 s, and a sync hit its 25 s deadline).
///
/// Tests that only compute (`.computing`) run their threads at the lowest priority, nice 19:
/// fifty reader and fuzz cases at once left the pool's two threads a few percent of the
/// processors, and a control-socket test on the pool then waited 30 s for an answer its server
/// needed milliseconds to give (CI, 2 cores). At nice 19 they take what the others leave.
public struct OffThePool: SuiteTrait, TestTrait, TestScoping {
    /// The nice value of the test's threads (and of the processes they start).
    let niceness: Int32

    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        // Suites get no scope of their own: each test case does.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.at(niceness)) { try await function() }
    }
}

extension Trait where Self == OffThePool {
    /// Each test of the suite runs on threads of its own, off the cooperative pool: for tests
    /// that wait (processes, sockets, files) and whose waits have deadlines.
    public static var offThePool: OffThePool { OffThePool(niceness: 0) }

    /// Each test of the suite runs on threads of its own at the lowest priority: for tests that
    /// compute for seconds and wait for nothing with a deadline (fuzzers, readers, long streams).
    public static var computing: OffThePool { OffThePool(niceness: 19) }
}

/// The executor `.offThePool` runs a test's jobs on, for the tasks a test starts itself (a
/// server's loop, a daemon's `run`): an unstructured `Task {}` does not inherit its test's
/// preference, and on the cooperative pool its jobs queued behind every other test's (CI: a
/// control server's answer waited 57 s there, past its client's 30 s).
public let ownThreads: any TaskExecutor = ThreadPerJobExecutor.normal

/// A task executor that runs every job on a new thread (BlockingWork's): a job that blocks for
/// seconds blocks nothing else.
final class ThreadPerJobExecutor: TaskExecutor {
    static let normal = ThreadPerJobExecutor(niceness: 0)
    static let lowest = ThreadPerJobExecutor(niceness: 19)

    static func at(_ niceness: Int32) -> ThreadPerJobExecutor { niceness == 0 ? normal : lowest }

    let niceness: Int32

    init(niceness: Int32) { self.niceness = niceness }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let niceness = self.niceness
        BlockingWork.start {
            // Linux keeps a nice value per thread: who 0 is this thread alone.
            if niceness != 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) }
            job.runSynchronously(on: executor)
        }
    }
}
#endif
