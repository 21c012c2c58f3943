import Glibc
import QuoteSystem

/// The priority quoted's async programs run at, and the way they start.
///
/// libdispatch's Linux worker threads set their own nice value from their queue's priority
/// (user-initiated -2, default 0, utility 2, background 10: `_dispatch_pp_to_nice`) and, when the
/// kernel refuses, send "Failed to set thread priority for worker thread: … errno=13" to syslog —
/// the service's journal. An unprivileged process may raise its nice value but never lower it
/// (EACCES), and Swift gives a task started on the main thread user-initiated priority, so every
/// worker a daemon running as its own user woke asked for -2 and logged the refusal. A task at
/// the highest priority whose nice value is no lower than the thread's own never asks for more
/// than it has.
public enum WorkerPriority {
    /// The highest task priority whose worker threads' nice value is at least `nice`.
    /// (Past 10 nothing fits; background is the closest.)
    public static func fitting(nice: Int32) -> TaskPriority {
        switch nice {
        case ...0: return .medium
        case 1...2: return .low
        default: return .background
        }
    }

    /// This thread's nice value (getpriority(2): -1 is a value, so errno tells a failure), or 0.
    public static var currentNice: Int32 {
        errno = 0
        let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        return value == -1 && errno != 0 ? 0 : value
    }

    /// The priority for a program started on this thread.
    public static var current: TaskPriority { fitting(nice: currentNice) }

    /// Runs `body` as a task at `current` priority, blocking this thread until it returns: what a
    /// top-level `await` would do, without the main thread's user-initiated priority, which every
    /// child task and actor job would inherit. Nothing awaits the task, so nothing escalates it.
    public static func run<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
        let outcome = ConditionLock<Result?>(nil)
        Task.detached(priority: current) {
            let value = await body()
            outcome.withLock { $0 = value }
        }
        return outcome.wait(until: { $0 != nil }, then: { $0! })
    }
}
