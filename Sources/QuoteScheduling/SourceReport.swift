import QuoteBase
import QuoteModels
import QuoteText

/// The outcome of one source's sync, for progress lines, `--json` and the daemon's STATUS.
public struct SourceReport: Sendable, Equatable {
    public var source: String
    public var ok: Bool
    public var httpStatus: Int?
    public var counts = ChangeCounts()
    /// "536 markets, 3 changed" on success; the one-line reason on failure.
    public var summary: String
    public var retryAfter: Int?
    public var nextDue: Int?
    public var seconds: Double
    public var isConfigurationProblem = false
    /// Set when the store failed (74 I/O, 75 busy) rather than the upstream.
    public var storeExitCode: ExitCode?
    /// No request was made: the upstream's block (`retryAfter`) had not passed.
    public var notContacted = false
    /// Where the time went (seconds per phase, in order), for `quoted sync --once --timings`.
    public var phases: [Phase] = []
    /// The response bodies the sync received (bytes).
    public var fetchedBytes = 0

    public struct Phase: Sendable, Equatable {
        public let name: String
        public let seconds: Double

        public init(name: String, seconds: Double) {
            self.name = name
            self.seconds = seconds
        }
    }

    /// "upbit: 536 markets, 3 changed, 0.41 s" / "happiness: HTTP 503, retry after 7 s".
    public var summaryLine: String {
        let duration = seconds < 10 ? String(Int(seconds * 100) / 100) + "." + twoDigits(Int(seconds * 100) % 100) : String(Int(seconds))
        return ok ? "\(source): \(summary), \(duration) s" : "\(source): \(summary)"
    }

    private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    public var json: String {
        var object = JSONObjectBuilder()
        object.add("source", source)
        object.add("ok", ok)
        object.add("http_status", httpStatus)
        object.add("inserted", counts.inserted)
        object.add("updated", counts.updated)
        object.add("removed", counts.removed)
        object.add("skipped", counts.skipped)
        object.add("unchanged", counts.unchanged)
        object.add("changed", counts.changed)
        object.add(ok ? "summary" : "error", summary)
        object.add("retry_after", retryAfter)
        object.add("next_due", nextDue)
        object.add("seconds", (seconds * 1000).rounded() / 1000)
        object.add("configuration_problem", isConfigurationProblem)
        object.add("store_exit_code", storeExitCode.map { Int($0.rawValue) })
        object.add("not_contacted", notContacted)
        object.add("fetched_bytes", fetchedBytes)
        return object.result
    }

    /// Reads back what `json` wrote (the daemon reads its sync children's reports this way).
    public init?(json value: JSONValue) {
        guard let object = value.object, let source = object["source"]?.string, let ok = object["ok"]?.bool else { return nil }
        self.source = source
        self.ok = ok
        httpStatus = object["http_status"]?.int
        counts = ChangeCounts(inserted: object["inserted"]?.int ?? 0, updated: object["updated"]?.int ?? 0,
                              removed: object["removed"]?.int ?? 0, unchanged: object["unchanged"]?.int ?? 0,
                              skipped: object["skipped"]?.int ?? 0)
        summary = object[ok ? "summary" : "error"]?.string ?? ""
        retryAfter = object["retry_after"]?.int
        nextDue = object["next_due"]?.int
        seconds = object["seconds"]?.double ?? 0
        isConfigurationProblem = object["configuration_problem"]?.bool ?? false
        storeExitCode = object["store_exit_code"]?.int.flatMap { Int32(exactly: $0) }.map(ExitCode.init(rawValue:))
        notContacted = object["not_contacted"]?.bool ?? false
        fetchedBytes = max(0, object["fetched_bytes"]?.int ?? 0)
    }

    public init(source: String, ok: Bool, httpStatus: Int? = nil, counts: ChangeCounts = ChangeCounts(), summary: String,
                retryAfter: Int? = nil, nextDue: Int? = nil, seconds: Double, isConfigurationProblem: Bool = false,
                storeExitCode: ExitCode? = nil) {
        self.source = source
        self.ok = ok
        self.httpStatus = httpStatus
        self.counts = counts
        self.summary = summary
        self.retryAfter = retryAfter
        self.nextDue = nextDue
        self.seconds = seconds
        self.isConfigurationProblem = isConfigurationProblem
        self.storeExitCode = storeExitCode
    }
}
