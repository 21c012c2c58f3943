import QuoteStore
import QuoteSystem

/// SQLite's quick_check of the store, on a connection and a thread of its own, so that it runs
/// while a list streams in (it reads every page: 0.4 s for a 380 MB store) instead of before. Its
/// verdict is awaited before the commit: a store SQLite calls damaged is never written to, as
/// every reader refuses it (the transaction, not yet committed, is rolled back).
final class StoreCheck: @unchecked Sendable {
    private let path: String
    private var thread: JoinableThread?
    /// Set by the checking thread; read after it was joined.
    private var outcome: Result<String?, DatabaseError> = .success(nil)

    init(path: String) {
        self.path = path
        thread = JoinableThread { [self] in run() }
        if thread == nil { run() }
    }

    private func run() {
        outcome = Result { () throws(DatabaseError) -> String? in
            try Database(path: path, mode: .readOnly).quickCheck()
        }
    }

    /// Waits for the check; throws the engine's local failure when the store is damaged.
    func verdict() throws {
        thread?.join()
        if let problem = try outcome.get() {
            throw SourceFailure.local(StoreError.damaged(path: path, reason: "SQLite's quick_check: \(TerminalSanitizer.clean(problem))"))
        }
    }
}
