import QuoteText

/// `quotectl check`'s verdict in the Nagios plugin convention (exit 0 OK, 1 WARNING, 2 CRITICAL,
/// 3 UNKNOWN; one line, then perfdata), and the same words for the daemon's status line.
public struct HealthVerdict: Sendable, Equatable {
    public enum Status: Int32, Sendable {
        case ok = 0, warning = 1, critical = 2, unknown = 3

        public var word: String {
            switch self {
            case .ok: "OK"
            case .warning: "WARNING"
            case .critical: "CRITICAL"
            case .unknown: "UNKNOWN"
            }
        }
    }

    public let status: Status
    public let fresh: Int
    public let stale: Int
    public let failing: Int
    /// "4 of 5 sources fresh; failing: upbit (HTTP 503 for 12 min)": what `check` and STATUS= say,
    /// each failing source with the reason its last attempt failed.
    public let summary: String

    public init(sources: [SourceHealth], now: Int, thresholds: HealthThresholds = HealthThresholds()) {
        var failingNotes: [String] = [], staleNotes: [String] = []
        var critical = false
        for source in sources {
            switch thresholds.classify(source, now: now) {
            case .fresh: continue
            case .stale: staleNotes.append(Self.staleNote(source, now: now))
            case .failing:
                failingNotes.append(Self.failingNote(source, now: now))
                critical = critical || thresholds.isCritical(source, now: now)
            }
        }
        fresh = sources.count - failingNotes.count - staleNotes.count
        stale = staleNotes.count
        failing = failingNotes.count
        status = critical ? .critical : failingNotes.isEmpty && staleNotes.isEmpty ? .ok : .warning
        var text = "\(fresh) of \(sources.count) sources fresh"
        if !failingNotes.isEmpty { text += "; failing: " + failingNotes.joined(separator: ", ") }
        if !staleNotes.isEmpty { text += "; stale: " + staleNotes.joined(separator: ", ") }
        summary = text
    }

    /// The plugin's one line: `QUOTED OK - 5 of 5 sources fresh | fresh=5;;; stale=0;;; failing=0;;;`.
    public var line: String {
        "QUOTED \(status.word) - \(summary) | fresh=\(fresh);;; stale=\(stale);;; failing=\(failing);;;"
    }

    /// The line of a check that could not judge (an unreadable store, bad arguments).
    public static func unknownLine(_ reason: String) -> String {
        "QUOTED UNKNOWN - " + Self.plain(reason, limit: 300)
    }

    static func failingNote(_ source: SourceHealth, now: Int) -> String {
        if source.feedExpired(now: now), let until = source.feedValidUntil {
            return "\(plain(source.name, limit: 80)) (feed expired \(age(since: until, now: now)) ago)"
        }
        let duration = source.failingSince.map { " for " + age(since: $0, now: now) } ?? ""
        return "\(plain(source.name, limit: 80)) (\(failureReason(source))\(duration))"
    }

    /// Why the last attempt failed, as the store recorded it: the status alone would call a feed
    /// refused for its DTD "HTTP 200" (the request went well, the body did not); a failing status
    /// is where the stored error begins anyway ("HTTP 503, retry after 60 s").
    static func failureReason(_ source: SourceHealth) -> String {
        source.lastError.map { plain($0, limit: 120) } ?? source.lastHTTPStatus.map { "HTTP \($0)" } ?? "failed"
    }

    static func staleNote(_ source: SourceHealth, now: Int) -> String {
        let detail = source.lastSuccess.map { "last success \(age(since: $0, now: now)) ago" } ?? "never synced"
        return "\(plain(source.name, limit: 80)) (\(detail))"
    }

    /// One line, no control characters, and no `|` (which would start the perfdata).
    static func plain(_ text: String, limit: Int) -> String {
        let line = TerminalSanitizer.oneLine(text).replacing("|", with: "/")
        return line.count > limit ? String(line.prefix(limit)) + "…" : line
    }

    static func age(since time: Int, now: Int) -> String { age(HealthThresholds.elapsed(since: time, now: now)) }

    /// "45 s", "12 min", "3 h", "2 d": whole units, rounded down.
    public static func age(_ seconds: Int) -> String {
        let seconds = max(0, seconds)
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3_600 { return "\(seconds / 60) min" }
        if seconds < 86_400 { return "\(seconds / 3_600) h" }
        return "\(seconds / 86_400) d"
    }
}
