import QuoteStore
import QuoteText
import QuoteSystem
import Synchronization

/// SQLite's quick_check of the store, on a connection and a thread of its own, so that it runs
/// while a list streams in (it reads every page, a noticeable wait on a big store) instead of before. Its
/// verdict is awaited before the commit: a store SQLite calls damaged is never written to, as
/// every reader refuses it (the transaction, not yet committed, is rolled back).
final class StoreCheck: Sendable {
    private let path: String
    /// The check's answer: set by the checking thread, read after it was joined.
    private final class Answer: Sendable {
        let outcome = Mutex<Result<String?, StoreError>>(.success(nil))
    }
    private let answer = Answer()
    private let thread: JoinableThread?

    init(path: String) {
        self.path = path
        let answer = self.answer
        thread = JoinableThread { answer.outcome.withLock { $0 = Self.check(path) } }
        if thread == nil { answer.outcome.withLock { $0 = Self.check(path) } }
    }

    private static func check(_ path: String) -> Result<String?, StoreError> {
        Result { () throws(StoreError) -> String? in try Store.quickCheck(path: path) }
    }

    /// Waits for the check; throws the engine's local failure when the store is damaged.
    func verdict() throws {
        thread?.join()
        if let problem = try answer.outcome.withLock({ $0 }).get() {
            throw SourceFailure.local(StoreError.damaged(path: path, reason: "SQLite's quick_check: \(TerminalSanitizer.clean(problem))"))
        }
    }
}
