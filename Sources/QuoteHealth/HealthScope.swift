/// Which sources a health reading covers: the configuration's enabled sources (the built-in
/// set never counts); on a spoke, those it syncs — which depend on what the hub's feed brought,
/// read from the store when the reading is taken.
public struct HealthScope: Sendable {
    public struct Source: Sendable, Equatable {
        public var name: String
        public var intervalSeconds: Int
        /// On a spoke: it syncs from the hub's feed (not from a URL of its own).
        public var fromFeed: Bool

        public init(name: String, intervalSeconds: Int, fromFeed: Bool = false) {
            self.name = name
            self.intervalSeconds = intervalSeconds
            self.fromFeed = fromFeed
        }
    }

    /// The sources to watch, given the names of those the hub's feed brought (none off a fleet).
    private let watched: @Sendable (_ fed: [String]) -> [Source]
    /// On a spoke: the hub's manifest URL (the sources it fed are recorded under it).
    public var manifestURL: String?
    /// On a spoke: the feed's name when the configuration pins one.
    public var feedName: String?
    /// On a hub: the folder its feed is published to.
    public var publishFolder: String?

    /// The same sources whatever the store says: a host that follows no hub.
    public init(sources: [Source], publishFolder: String? = nil) {
        self.watched = { _ in sources }
        self.publishFolder = publishFolder
    }

    /// A spoke's: `sources` says which to watch given the names of those the feed brought.
    public init(manifestURL: String, feedName: String?, publishFolder: String? = nil,
                sources: @escaping @Sendable (_ fed: [String]) -> [Source]) {
        self.watched = sources
        self.manifestURL = manifestURL
        self.feedName = feedName
        self.publishFolder = publishFolder
    }

    /// The sources to watch when the hub's feed has brought `fed`.
    public func sources(fed: [String]) -> [Source] {
        watched(fed)
    }
}
