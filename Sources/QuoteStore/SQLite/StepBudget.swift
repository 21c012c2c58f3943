import CSQLite
import QuoteBase

extension Database {
    /// Runs `body` with at most about `steps` of SQLite's virtual-machine steps for the statements
    /// it runs, and at most about `pages` read from outside the connection's page cache; past
    /// either the running statement stops (SQLITE_INTERRUPT) and this returns nil. A bound on
    /// work, not on rows: a count whose rows mostly fail the filter still ends in time, and one
    /// that reads a row of its own page per step of an index (a condition its index does not hold)
    /// ends at the pages it is worth, a hundred times fewer steps than one walking an index alone.
    /// The budget is checked every 1,000 steps, every 100 with a bound on pages (a smaller
    /// budget once, at its end); a cancellation flag set by `interrupt(by:)` is still honoured
    /// meanwhile, and restored afterwards.
    func withinSteps<T>(_ steps: Int, pages: Int = Int.max, _ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T? {
        let every = max(1, min(steps, pages == Int.max ? StepBudget.stepsPerCheck : StepBudget.stepsPerPageCheck))
        let budget = StepBudget(checks: max(0, steps / every), pages: pages, of: handle, cancel: interruptFlag)
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
    static let stepsPerPageCheck = 100
    private var checksLeft: Int
    /// The pages the connection may read from outside its cache (`Int.max`: unbounded, never
    /// looked at), counted by SQLite from the budget's start.
    private let handle: OpaquePointer
    private let pages: Int
    private(set) var spent = false
    let cancel: CancelFlag?

    init(checks: Int, pages: Int, of handle: OpaquePointer, cancel: CancelFlag?) {
        checksLeft = checks
        self.pages = pages
        self.handle = handle
        if pages != Int.max { _ = Self.cacheMisses(handle, reset: true) }
        self.cancel = cancel
    }

    /// Whether the statement may go on.
    func spend() -> Bool {
        checksLeft -= 1
        if checksLeft < 0 || (pages != Int.max && Int(Self.cacheMisses(handle)) > pages) { spent = true }
        return !spent && !(cancel?.isSet ?? false)
    }

    /// Pages this connection read from outside its cache since the count was last reset (nothing
    /// else here reads or resets it).
    private static func cacheMisses(_ handle: OpaquePointer, reset: Bool = false) -> Int32 {
        var current: Int32 = 0, highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_MISS, &current, &highest, reset ? 1 : 0)
        return current
    }
}
