import QuoteBase
import QuoteConfig

/// When a source is next due. Pure functions of the time and a random source, so
/// the daemon's scheduler can be tested with an injected clock and generator.
public struct Schedule: Sendable {
    /// The first retry after a failure waits up to this long; each failure doubles it.
    public static let backoffBase = 60
    /// No backoff ever waits longer than this (or than the source's interval).
    public static let backoffCap = 6 * 3_600
    /// The happiness quote changes at 00:00 UTC; ask a few minutes after.
    public static let happinessOffset = 5 * 60
    /// The longest an upstream may make us wait (Retry-After, an Upbit block): longer asks are cut to this.
    public static let maximumBlock = 7 * 86_400

    public init() {}

    /// After a success: `interval` ± 10%, or for happiness a few minutes after the next UTC midnight.
    public func nextDue<G: RandomNumberGenerator>(afterSuccessOf settings: SourceSettings, at now: Int,
                                                  using generator: inout G) -> Int {
        if settings.kind == .happiness {
            let nextMidnight = UnixTime.nextUTCMidnight(after: now)
            return nextMidnight + Self.happinessOffset + Int.random(in: 0...300, using: &generator)
        }
        let jitter = settings.interval / 10
        return now + settings.interval + (jitter > 0 ? Int.random(in: -jitter...jitter, using: &generator) : 0)
    }

    /// After the `failures`-th failure in a row: exponential backoff with full jitter
    /// (uniform in 0...min(cap, base·2^(failures-1))), but never before `retryAfter`.
    public func nextDue<G: RandomNumberGenerator>(afterFailure failures: Int, of settings: SourceSettings, at now: Int,
                                                  retryAfter: Int?, using generator: inout G) -> Int {
        let cap = min(Self.backoffCap, max(settings.interval, Self.backoffBase))
        let exponent = min(max(failures - 1, 0), 30)
        let ceiling = min(cap, Self.backoffBase << exponent)
        // Full jitter, but at least a few seconds so a flapping upstream is not hammered.
        let wait = max(5, Int.random(in: 0...ceiling, using: &generator))
        return max(now + wait, retryAfter ?? 0)
    }
}

extension Schedule {
    /// The furthest ahead a next-due time that this schedule made at `now` can be: one interval
    /// and its jitter (for happiness the next day's quote time), or — for the upstream's own
    /// block — `maximumBlock`.
    public func horizon(of settings: SourceSettings, now: Int, blocked: Bool) -> Int {
        if blocked { return now.addingReportingOverflow(Self.maximumBlock).partialValue }
        let ahead = settings.kind == .happiness ? 86_400 + Self.happinessOffset + 300 : settings.interval + settings.interval / 10
        return now.addingReportingOverflow(ahead).partialValue
    }

    /// A stored next-due time (or block) as far as it can be trusted now. One that lies beyond
    /// what this schedule could have made at `now` was made under a wrong clock (a bad RTC, a
    /// restored VM snapshot, a Pi before NTP): it becomes `now` + the interval (happiness: its
    /// next quote time), instead of stranding the source for as long as the clock was wrong.
    /// A time in the past is left as it is: due now.
    public func trusted(_ stored: Int, of settings: SourceSettings, now: Int, blocked: Bool = false) -> Int {
        guard stored > horizon(of: settings, now: now, blocked: blocked) else { return stored }
        if settings.kind == .happiness { return UnixTime.nextUTCMidnight(after: now) + Self.happinessOffset }
        return now + settings.interval
    }

    /// After the store itself failed (not the upstream): a busy store is tried again in a
    /// minute, a full, read-only or damaged one in five. The upstream's backoff is untouched.
    public func nextDue(afterLocalFailure busy: Bool, at now: Int) -> Int {
        now + (busy ? 60 : 300)
    }

    /// When a source is next due after `report`, given its failures in a row before it:
    /// the one decision the daemon and `quoted sync --once` share.
    public func nextDue<G: RandomNumberGenerator>(after report: SourceReport, of settings: SourceSettings,
                                                  previousFailures: Int, at now: Int, using generator: inout G) -> Int {
        if report.ok { return nextDue(afterSuccessOf: settings, at: now, using: &generator) }
        if let store = report.storeExitCode { return nextDue(afterLocalFailure: store == .temporaryFailure, at: now) }
        // Not contacted at all: the upstream's block stands, nothing else changed.
        if report.notContacted, let until = report.retryAfter { return until }
        return nextDue(afterFailure: previousFailures + 1, of: settings, at: now, retryAfter: report.retryAfter, using: &generator)
    }

    /// After a start: a source keeps its stored next due time when that is still
    /// ahead (a restart restarts no clock); one that is overdue (the daemon or the
    /// machine was off) or never synced is due now — the overdue ones `spacing` apart with a
    /// second's jitter (the daemon's is 0: its limit on syncs side by side bounds a first round).
    public func initialDue<G: RandomNumberGenerator>(stored: [String: Int], sources: [SourceSettings], now: Int,
                                                     spacing: Int = 2, using generator: inout G) -> [String: Int] {
        var due: [String: Int] = [:]
        var overdue = 0
        for settings in sources {
            if let next = stored[settings.name], next > now {
                due[settings.name] = next
            } else {
                due[settings.name] = now + overdue * spacing + Int.random(in: 0...1, using: &generator)
                overdue += 1
            }
        }
        return due
    }
}
