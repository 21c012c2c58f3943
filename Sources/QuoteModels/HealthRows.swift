/// What a health reading is made of, as the store holds it (QuoteStore's `HealthQuery`): each
/// watched source's rows per table and its sync record and, on a spoke, the sources the hub's
/// feed brought and the manifest it applied. QuoteHealth makes health of them (`HealthScope.read`),
/// so the store knows no health rule and QuoteHealth no SQL.
public struct HealthRows: Sendable {
    public struct Source: Sendable, Equatable {
        public var tables: [TableRows]
        /// Nil until the source's first sync was recorded.
        public var sync: SyncRecord?

        public init(tables: [TableRows], sync: SyncRecord?) {
            self.tables = tables
            self.sync = sync
        }
    }

    /// On a spoke: the sources recorded under the hub's manifest URL.
    public var fed: [String]
    /// On a spoke: the manifest applied, of the feed the configuration pins, else the newest checked.
    public var feed: FeedTrust?
    /// By name: every source the reading watches.
    public var sources: [String: Source]

    public init(fed: [String], feed: FeedTrust?, sources: [String: Source]) {
        self.fed = fed
        self.feed = feed
        self.sources = sources
    }
}

/// Rows stored in one table for a source (`quotes`, `markets`…): kept counts, never a count of quotes.
public struct TableRows: Sendable, Equatable {
    public var table: String
    public var count: Int

    public init(table: String, count: Int) {
        self.table = table
        self.count = count
    }
}

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

/// What a spoke trusts of one hub's feed: the manifest it applied last (its serial, the floor
/// from then on), until when that is valid, and when the hub last answered.
public struct FeedTrust: Sendable, Equatable {
    public var name: String
    public var serial: Int
    public var generated: Int
    public var validUntil: Int
    public var checkedAt: Int

    public init(name: String, serial: Int, generated: Int, validUntil: Int, checkedAt: Int) {
        self.name = name
        self.serial = serial
        self.generated = generated
        self.validUntil = validUntil
        self.checkedAt = checkedAt
    }
}
