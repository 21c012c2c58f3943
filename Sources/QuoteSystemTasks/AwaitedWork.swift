import QuoteSystem

extension BlockingWork {
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
