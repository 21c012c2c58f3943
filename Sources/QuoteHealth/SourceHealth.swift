import QuoteModels

/// What is known of one source's syncs, as plain data: what `quotectl check`, the metrics and
/// the daemon's status line are made from, made of the store's rows (`HealthScope.read`).
public struct SourceHealth: Sendable, Equatable {
    public var name: String
    /// On a spoke: the name of the hub's feed the source comes from.
    public var feed: String?
    public var rows: [TableRows] = []
    /// The configured sync interval, when the configuration names the source.
    public var intervalSeconds: Int?
    public var lastAttempt: Int?
    public var lastSuccess: Int?
    public var nextDue: Int?
    public var consecutiveFailures = 0
    /// When the current run of failures began; nil while the last sync succeeded.
    public var failingSince: Int?
    public var lastError: String?
    public var lastHTTPStatus: Int?
    public var lastDurationMilliseconds: Int?
    public var fetchedBytesTotal = 0
    public var rowsChangedTotal = 0
    public var syncsOKTotal = 0
    public var syncsFailedTotal = 0
    /// On a spoke: until when the feed's applied manifest is valid.
    public var feedValidUntil: Int?

    public init(name: String) {
        self.name = name
    }

    /// What the store recorded of its syncs.
    mutating func take(_ record: SyncRecord) {
        lastAttempt = record.lastAttempt
        lastSuccess = record.lastSuccess
        nextDue = record.nextDue
        consecutiveFailures = record.consecutiveFailures
        lastError = record.lastError
        lastHTTPStatus = record.lastHTTPStatus
        failingSince = record.failingSince
        lastDurationMilliseconds = record.lastDurationMilliseconds
        fetchedBytesTotal = record.fetchedBytesTotal
        rowsChangedTotal = record.rowsChangedTotal
        syncsOKTotal = record.syncsOKTotal
        syncsFailedTotal = record.syncsFailedTotal
    }

    /// Whether its data came from a feed whose manifest has expired.
    public func feedExpired(now: Int) -> Bool { Freshness.feedExpired(fromFeed: feed != nil, validUntil: feedValidUntil, now: now) }

    /// The bar's word for it (`Freshness`), the one rule every reader shares.
    public func freshness(now: Int) -> Freshness {
        Freshness.of(consecutiveFailures: consecutiveFailures, feedExpired: feedExpired(now: now),
                     isBuiltin: name == SourceName.builtin, lastSuccess: lastSuccess, nextDue: nextDue, now: now)
    }
}
