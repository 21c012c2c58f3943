/// What the store knows of one source: how much it holds and how its syncs went.
public struct SourceStatus: Sendable {
    public var name: String
    public var quotes: Int
    /// Other rows the source brought: characters, deaths, markets, observations.
    public var otherRows: [(label: String, count: Int)]
    public var configured: Bool
    public var lastAttempt: Int?
    public var lastSuccess: Int?
    public var nextDue: Int?
    public var consecutiveFailures: Int
    public var lastError: String?
    public var lastHTTPStatus: Int?
    public var retryAfter: Int?
    public var lastSummary: String?

    public func json(now: Int) -> String {
        var object = JSONObjectBuilder()
        object.add("source", name)
        object.add("quotes", quotes)
        for row in otherRows { object.add(row.label, row.count) }
        object.add("configured", configured)
        object.add("last_attempt", lastAttempt)
        object.add("last_success", lastSuccess)
        object.add("next_due", nextDue)
        object.add("consecutive_failures", consecutiveFailures)
        object.add("last_error", lastError)
        object.add("last_http_status", lastHTTPStatus)
        object.add("retry_after", retryAfter)
        object.add("last_summary", lastSummary)
        return object.result
    }
}

public struct StatusQuery {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Every fixed source (synced or not) and every custom list the store knows.
    public func sources() throws(DatabaseError) -> [SourceStatus] {
        var quoteCounts: [String: Int] = [:]
        let counts = try database.prepare("SELECT source, count(*) FROM quotes GROUP BY source")
        while try counts.step() { quoteCounts[counts.string(0)] = counts.int(1) }

        let other: [String: [(label: String, count: Int)]] = [
            SourceName.breakingbad: [("characters", try count("characters")), ("deaths", try count("deaths"))],
            SourceName.upbit: [("markets", try count("markets WHERE delisted_at IS NULL")),
                               ("delisted", try count("markets WHERE delisted_at IS NOT NULL"))],
            SourceName.weather: [("observations", try count("weather_observations"))],
        ]

        var names = SourceName.fixed
        let known = try database.prepare("SELECT name FROM sources WHERE kind = 'custom' ORDER BY name")
        while try known.step() { names.append(known.string(0)) }

        let state = try database.prepare("""
            SELECT s.configured, st.last_attempt, st.last_success, st.next_due, coalesce(st.consecutive_failures, 0),
                   st.last_error, st.last_http_status, st.retry_after, st.last_summary
              FROM (SELECT ?1 AS name) n
              LEFT JOIN sources s ON s.name = n.name
              LEFT JOIN sync_state st ON st.source = n.name
            """)
        return try names.map { name throws(DatabaseError) in
            state.reset()
            try state.bind(name, at: 1)
            _ = try state.step()
            return SourceStatus(
                name: name, quotes: quoteCounts[name] ?? 0, otherRows: other[name] ?? [],
                configured: state.optionalInt(0).map { $0 != 0 } ?? true,
                lastAttempt: state.optionalInt(1), lastSuccess: state.optionalInt(2), nextDue: state.optionalInt(3),
                consecutiveFailures: state.int(4), lastError: state.optionalString(5),
                lastHTTPStatus: state.optionalInt(6), retryAfter: state.optionalInt(7),
                lastSummary: state.optionalString(8))
        }
    }

    private func count(_ from: String) throws(DatabaseError) -> Int {
        try database.scalarInt("SELECT count(*) FROM \(from)") ?? 0
    }
}
