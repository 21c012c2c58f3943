import QuoteModels

/// What is known of one source's syncs, as plain data: what `quotectl check`, the metrics and
/// the daemon's status line are made from, made of the store's rows (`HealthScope.read`).
@dynamicMemberLookup
public struct SourceHealth: Sendable, Equatable {
    public var name: String
    /// On a spoke: the name of the hub's feed the source comes from.
    public var feed: String?
    public var rows: [TableRows] = []
    /// The configured sync interval, when the configuration names the source.
    public var intervalSeconds: Int?
    /// What the store recorded of its syncs (`health.lastSuccess` reads `sync.lastSuccess`).
    public var sync = SyncRecord()
    /// On a spoke: until when the feed's applied manifest is valid.
    public var feedValidUntil: Int?

    public init(name: String) {
        self.name = name
    }

    public subscript<Value>(dynamicMember field: WritableKeyPath<SyncRecord, Value>) -> Value {
        get { sync[keyPath: field] }
        set { sync[keyPath: field] = newValue }
    }

    /// Whether its data came from a feed whose manifest has expired.
    public func feedExpired(now: Int) -> Bool { Freshness.feedExpired(fromFeed: feed != nil, validUntil: feedValidUntil, now: now) }

    /// The bar's word for it (`Freshness`), the one rule every reader shares.
    public func freshness(now: Int) -> Freshness {
        Freshness.of(consecutiveFailures: sync.consecutiveFailures, feedExpired: feedExpired(now: now),
                     isBuiltin: name == SourceName.builtin, lastSuccess: sync.lastSuccess, nextDue: sync.nextDue, now: now)
    }
}
