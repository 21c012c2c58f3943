import QuoteModels

/// What `quotectl check`, the metrics and the daemon's status line are made of, as rows: each
/// watched source's sync record and rows stored, and the feed a spoke follows (QuoteHealth makes
/// health of them). It never counts quotes: they come from the counts the writers keep
/// (`sources.quote_count`); only the small tables are counted.
public struct HealthQuery {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    /// The rows of the sources `watched` names given those the hub's feed brought under
    /// `manifestURL` (none off a fleet), and the manifest a spoke applied: of the feed named
    /// `feedName`, else the newest it checked.
    public func rows(manifestURL: String?, feedName: String?, watched: ([String]) -> [String]) throws(StoreError) -> HealthRows {
        let fed = try manifestURL.map { url throws(StoreError) in
            try FeedStateRepository(database: database).fedSources(manifestURL: url).map(\.name)
        } ?? []
        let feed = try manifestURL.flatMap { _ throws(StoreError) in try appliedFeed(named: feedName) }
        let records = try SyncStateRepository(database: database).records()
        let sources = try database.storeOperation { () throws(DatabaseError) in
            let quotes = try StatusQuery(database: database).quotesPerSource()
            var sources: [String: HealthRows.Source] = [:]
            for name in watched(fed) {
                sources[name] = HealthRows.Source(tables: try tables(of: name, quotes: quotes[name] ?? 0), sync: records[name])
            }
            return sources
        }
        return HealthRows(fed: fed, feed: feed, sources: sources)
    }

    /// The tables a source fills: quotes (counted by the writers), then the others.
    private func tables(of source: String, quotes: Int) throws(DatabaseError) -> [TableRows] {
        let quoteRows = SourceTables.bringsQuotes(source) ? [TableRows(table: "quotes", count: quotes)] : []
        return quoteRows + (try SourceTables.otherRows(of: source, in: database))
    }

    private func appliedFeed(named name: String?) throws(StoreError) -> FeedTrust? {
        let trusted = FeedTrustRepository(database: database)
        guard let name else { return try trusted.feeds().first }
        return try trusted.trust(name: name)
    }
}
