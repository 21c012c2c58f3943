import QuoteModels

/// Everything the metrics say at one moment, as plain data: the sources, the feeds this host
/// publishes (a hub) or follows (a spoke), and — when the daemon wrote it or answered — the daemon.
public struct MetricsSnapshot: Sendable, Equatable {
    public var version: String
    public var sources: [SourceHealth]
    public var hubFeeds: [FeedHealth] = []
    public var spokeFeeds: [FeedHealth] = []
    public var daemon: DaemonHealth?

    public init(version: String, sources: [SourceHealth], hubFeeds: [FeedHealth] = [], spokeFeeds: [FeedHealth] = [],
                daemon: DaemonHealth? = nil) {
        self.version = version
        self.sources = sources
        self.hubFeeds = hubFeeds
        self.spokeFeeds = spokeFeeds
        self.daemon = daemon
    }
}

/// A feed's manifest as published (hub) or applied (spoke).
public struct FeedHealth: Sendable, Equatable {
    public var name: String
    public var serial: Int
    public var generated: Int
    public var validUntil: Int
    /// A spoke's last word from its hub.
    public var checkedAt: Int?

    public init(name: String, serial: Int, generated: Int, validUntil: Int, checkedAt: Int? = nil) {
        self.name = name
        self.serial = serial
        self.generated = generated
        self.validUntil = validUntil
        self.checkedAt = checkedAt
    }
}

/// What only the daemon knows of itself.
public struct DaemonHealth: Sendable, Equatable {
    /// Unix seconds.
    public var startTime: Int
    /// Syncs run since it started.
    public var syncsTotal: Int

    public init(startTime: Int, syncsTotal: Int) {
        self.startTime = startTime
        self.syncsTotal = syncsTotal
    }
}

extension FeedHealth {
    /// A hub's feed as the head of the manifest it published says: the publisher keeps no row
    /// of it, and the manifest is what spokes see.
    public init(published header: ManifestHeader) {
        self.init(name: header.name, serial: header.serial, generated: header.generated, validUntil: header.validUntil)
    }
}

extension MetricsSnapshot {
    /// The snapshot of what the store said of `scope`, with the hub's feed read from the
    /// manifest it published (when `scope` publishes one), by the manifest's one reader.
    public init(version: String, scope: HealthScope, sources: [SourceHealth], spokeFeed: FeedHealth?, daemon: DaemonHealth?) {
        let hub = scope.publishFolder.flatMap { ManifestHeader.read(folder: $0) }.map(FeedHealth.init(published:))
        self.init(version: version, sources: sources, hubFeeds: hub.map { [$0] } ?? [], spokeFeeds: spokeFeed.map { [$0] } ?? [],
                  daemon: daemon)
    }
}
