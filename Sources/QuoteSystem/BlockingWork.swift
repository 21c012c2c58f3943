import Glibc

/// The one way quoted runs work that blocks by nature (a poll loop, waitpid, a libcurl
/// transfer, SQLite waiting on a lock) off Swift's few cooperative threads: a detached POSIX
/// thread of its own. On a 2-core machine two blocking waits on the cooperative pool would
/// stall every task of the daemon. (No Dispatch, no Foundation `Thread`.) Awaiting the work
/// (`perform`) is QuoteSystemTasks': this module links no concurrency runtime.
public enum BlockingWork {
    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread; false if the system refused one.
    @discardableResult
    public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
            work.body()
            return nil
        }, work)
        guard result == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
