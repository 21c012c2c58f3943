import Glibc

/// A detached POSIX thread for work that blocks by nature (a poll loop, waitpid, sigwait),
/// kept off Swift's few cooperative threads. No Foundation `Thread`.
public enum BackgroundThread {
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

    /// Runs blocking `body` on a thread of its own and awaits its result.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            if !start({ continuation.resume(returning: body()) }) { continuation.resume(returning: body()) }
        }
    }
}
