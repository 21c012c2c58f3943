/// How a source's syncs went, as the store records them (its `sync_state` row): what `status`,
/// `check`, the metrics and the daemon's status line are made of.
public struct SyncRecord: Sendable, Equatable {
    public var lastAttempt: Int?
    public var lastSuccess: Int?
    public var nextDue: Int?
    public var consecutiveFailures = 0
    /// When the current run of failures began; nil while the last sync succeeded.
    public var failingSince: Int?
    public var lastError: String?
    public var lastHTTPStatus: Int?
    /// The upstream's block, when it asked to wait.
    public var retryAfter: Int?
    public var lastSummary: String?
    public var lastDurationMilliseconds: Int?
    public var fetchedBytesTotal = 0
    public var rowsChangedTotal = 0
    public var syncsOKTotal = 0
    public var syncsFailedTotal = 0

    public init() {}
}
