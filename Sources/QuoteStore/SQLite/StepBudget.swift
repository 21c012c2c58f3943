import CSQLite
import QuoteBase

extension Database {
    /// Runs `body` with at most about `steps` of SQLite's virtual-machine steps for the statements
    /// it runs; past them the running statement stops (SQLITE_INTERRUPT) and this returns nil.
    /// A bound on work, not on rows: a count whose rows mostly fail the filter still ends in
    /// time. The budget is checked every 1,000 steps (every step below that); a cancellation
    /// flag set by `interrupt(by:)` is still honoured meanwhile, and restored afterwards.
    func withinSteps<T>(_ steps: Int, _ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T? {
        let every = max(1, min(steps, StepBudget.stepsPerCheck))
        let budget = StepBudget(checks: max(0, steps / every), cancel: interruptFlag)
        sqlite3_progress_handler(handle, Int32(every), { context in
            Unmanaged<StepBudget>.fromOpaque(context!).takeUnretainedValue().spend() ? 0 : 1
        }, Unmanaged.passUnretained(budget).toOpaque())
        defer {
            interrupt(by: interruptFlag)
            withExtendedLifetime(budget) {}
        }
        do {
            return try body()
        } catch where error.resultCode == .interrupted && budget.spent && !(budget.cancel?.isSet ?? false) {
            return nil
        }
    }
}

/// What `withinSteps` has left, spent by SQLite's progress handler on the connection's thread.
private final class StepBudget {
    static let stepsPerCheck = 1_000
    private var checksLeft: Int
    let cancel: CancelFlag?

    init(checks: Int, cancel: CancelFlag?) {
        checksLeft = checks
        self.cancel = cancel
    }

    /// Whether the statement may go on.
    func spend() -> Bool {
        checksLeft -= 1
        return checksLeft >= 0 && !(cancel?.isSet ?? false)
    }

    var spent: Bool { checksLeft < 0 }
}
