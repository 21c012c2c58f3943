/// What a source is, in one word: the status bar's class, a template's {state}, and the ground
/// of `quotectl check`'s verdict, the metrics' `up` and the daemon's status line. One rule, here.
public enum Freshness: String, Sendable {
    /// Synced, and not yet due again.
    case fresh
    /// Due or overdue (the daemon has not got to it, or is not running).
    case due
    /// Its last attempt failed, or the hub's feed it came from has expired.
    case failing
    /// Never synced.
    case never

    public static func of(consecutiveFailures: Int, feedExpired: Bool, isBuiltin: Bool, lastSuccess: Int?, nextDue: Int?,
                          now: Int) -> Freshness {
        if consecutiveFailures > 0 || feedExpired { return .failing }
        if isBuiltin { return .fresh }
        guard lastSuccess != nil else { return .never }
        if let due = nextDue, due <= now { return .due }
        return .fresh
    }

    /// Whether data taken from a hub's feed is past the validity of the manifest applied: `status`
    /// and the health reading ask this one rule, whatever a 304 says.
    public static func feedExpired(fromFeed: Bool, validUntil: Int?, now: Int) -> Bool {
        fromFeed && (validUntil.map { $0 < now } ?? false)
    }
}

/// How `quotectl check` (and the daemon's status line) classes a source: a due source is still
/// fresh until its last success is older than `staleAfterIntervals` intervals.
public enum HealthClass: Sendable, Equatable {
    case fresh
    /// Never synced, or its last success is too old.
    case stale
    case failing
}

/// When a source is stale, and when a failure is critical.
public struct HealthThresholds: Sendable, Equatable {
    public static let defaultStaleAfterIntervals = 2
    public static let defaultCriticalAfterSeconds = 3_600

    public var staleAfterIntervals: Int
    public var criticalAfterSeconds: Int

    public init(staleAfterIntervals: Int = Self.defaultStaleAfterIntervals,
                criticalAfterSeconds: Int = Self.defaultCriticalAfterSeconds) {
        self.staleAfterIntervals = staleAfterIntervals
        self.criticalAfterSeconds = criticalAfterSeconds
    }

    /// The class of `source` at `now`.
    public func classify(_ source: SourceHealth, now: Int) -> HealthClass {
        switch source.freshness(now: now) {
        case .failing: return .failing
        case .never: return .stale
        case .fresh, .due:
            guard let success = source.lastSuccess, let interval = source.intervalSeconds else { return .fresh }
            let allowed = interval.multipliedReportingOverflow(by: staleAfterIntervals)
            return !allowed.overflow && Self.elapsed(since: success, now: now) > allowed.partialValue ? .stale : .fresh
        }
    }

    /// Seconds from `time` to `now`, both read from the store, which may hold anything: saturated
    /// at the ends of Int instead of wrapping (a wrapped difference would turn old into new).
    public static func elapsed(since time: Int, now: Int) -> Int {
        let difference = now.subtractingReportingOverflow(time)
        guard difference.overflow else { return difference.partialValue }
        return time < 0 ? Int.max : Int.min
    }

    /// Whether `source` is failing badly enough to page someone: for longer than the threshold,
    /// or on a feed past its expiry.
    public func isCritical(_ source: SourceHealth, now: Int) -> Bool {
        if source.feedExpired(now: now) { return true }
        guard source.consecutiveFailures > 0, let since = source.failingSince else { return false }
        return Self.elapsed(since: since, now: now) > criticalAfterSeconds
    }
}
