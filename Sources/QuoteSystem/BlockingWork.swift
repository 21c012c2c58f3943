import Glibc

/// The one way quoted runs work that blocks by nature (a poll loop, waitpid, a libcurl
/// transfer, SQLite waiting on a lock) off Swift's few cooperative threads: a detached POSIX
/// thread of its own. On a 2-core machine two blocking waits on the cooperative pool would
/// stall every task of the daemon. (No Dispatch, no Foundation `Thread`.)
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

    /// Runs blocking `body` on a thread of its own and awaits its result. If no thread can be
    /// had, it runs here: slower for the others, never lost.
    public static func perform<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            if !start({ continuation.resume(returning: body()) }) { continuation.resume(returning: body()) }
        }
    }

    /// The same for work that throws.
    public static func perform<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        try await perform { () -> Result<T, Failure> in Result { () throws(Failure) in try body() } }.get()
    }
}
