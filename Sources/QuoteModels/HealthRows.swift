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
