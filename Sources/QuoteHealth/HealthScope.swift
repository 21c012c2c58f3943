/// Which sources a health reading covers: the configuration's enabled sources (the built-in
/// set never counts), and on a spoke the feed they come from.
public struct HealthScope: Sendable, Equatable {
    public struct Source: Sendable, Equatable {
        public var name: String
        public var intervalSeconds: Int
        /// On a spoke: it syncs from a URL of its own, not from the hub's feed.
        public var hasOwnURL: Bool

        public init(name: String, intervalSeconds: Int, hasOwnURL: Bool = false) {
            self.name = name
            self.intervalSeconds = intervalSeconds
            self.hasOwnURL = hasOwnURL
        }
    }

    public var sources: [Source]
    /// On a spoke: the hub's manifest URL (the sources it fed are recorded under it).
    public var manifestURL: String?
    /// On a spoke: the feed's name when the configuration pins one.
    public var feedName: String?
    /// On a hub: the folder its feed is published to.
    public var publishFolder: String?

    public init(sources: [Source], manifestURL: String? = nil, feedName: String? = nil, publishFolder: String? = nil) {
        self.sources = sources
        self.manifestURL = manifestURL
        self.feedName = feedName
        self.publishFolder = publishFolder
    }
}
