import QuoteModels

extension HealthScope {
    /// The health of the sources this scope watches, in its order, and of the feed a spoke
    /// follows, made of the rows `rows` reads (the store's `HealthQuery.rows`, asked for this
    /// scope's manifest, feed and sources).
    public func read<Failure: Error>(
        _ rows: (_ manifestURL: String?, _ feedName: String?, _ watched: ([String]) -> [String]) throws(Failure) -> HealthRows
    ) throws(Failure) -> (sources: [SourceHealth], spokeFeed: FeedHealth?) {
        let stored = try rows(manifestURL, feedName) { fed in self.sources(fed: fed).map(\.name) }
        let feed = stored.feed.map {
            FeedHealth(name: $0.name, serial: $0.serial, generated: $0.generated, validUntil: $0.validUntil, checkedAt: $0.checkedAt)
        }
        // Named before the first manifest is applied when the configuration pins the feed.
        let fedBy = feed?.name ?? feedName
        let watched = self.sources(fed: stored.fed).map { scoped in
            var health = SourceHealth(name: scoped.name)
            health.intervalSeconds = scoped.intervalSeconds
            health.rows = stored.sources[scoped.name]?.tables ?? []
            if scoped.fromFeed {
                health.feed = fedBy
                health.feedValidUntil = feed?.validUntil
            }
            if let record = stored.sources[scoped.name]?.sync { health.sync = record }
            return health
        }
        return (watched, feed)
    }
}
