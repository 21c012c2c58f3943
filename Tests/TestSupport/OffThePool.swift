// Testing is there only where tests are built: a release build of the package builds this
// target too, without it.
#if canImport(Testing)
import QuoteSystem
import Testing

/// Runs a test's jobs on threads of their own instead of Swift's cooperative pool (two threads
/// on a two-core machine). End-to-end tests wait for processes, sockets and files in plain
/// synchronous calls, fuzz tests compute for seconds, a million-record stream runs for minutes;
/// on the pool, two such tests at once would stall every other test of the run (measured: a 60 ms
/// engine test took 22 s, and a sync hit its 25 s deadline).
public struct OffThePool: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        // Suites get no scope of their own: each test case does.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OffThePool {
    /// Each test of the suite runs on threads of its own, off the cooperative pool.
    public static var offThePool: OffThePool { OffThePool() }
}

/// A task executor that runs every job on a new thread (BlockingWork's): a job that blocks for
/// seconds blocks nothing else.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        BlockingWork.start { job.runSynchronously(on: executor) }
    }
}
#endif
