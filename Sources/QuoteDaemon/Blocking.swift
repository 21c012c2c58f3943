import QuoteBase

/// Runs blocking work (SQLite waiting on a lock, a file read) on a thread of its own and
/// awaits it, so it never occupies one of Swift's few cooperative threads: on a 2-core
/// machine two such waits would stall every task of the daemon.
enum Blocking {
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await BackgroundThread.run { Result { try body() } }.get()
    }
}
