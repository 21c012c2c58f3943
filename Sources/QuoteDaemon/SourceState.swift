import QuoteScheduling

/// What the daemon knows of one source: when it is next due, whether it runs or was asked for,
/// and how its last syncs went.
struct SourceState {
    /// When it is next due (Unix time); nil while it runs, or when it is not planned.
    var due: Int?
    /// Its due time is the upstream's block (Retry-After), which may lie further ahead than an interval.
    var blocked = false
    var running = false
    /// The reload whose configuration its running sync was started with (0: the daemon's first).
    var startedUnder = 0
    /// Asked for by `syncNow`, started by the scheduler at its next turn.
    var requested = false
    /// Its failures in a row.
    var failures = 0

    /// Takes in a sync's report and the next due time decided from it. A store's failure or a
    /// block that let nothing be sent is not the upstream's, so it adds no failure in a row.
    mutating func record(_ report: SourceReport, nextDue next: Int) {
        due = next
        blocked = report.retryAfter == next
        if report.ok {
            failures = 0
        } else if report.storeExitCode == nil, !report.notContacted {
            failures += 1
        }
    }
}
