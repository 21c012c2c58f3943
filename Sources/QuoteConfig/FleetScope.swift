import QuoteModels

/// What a spoke takes from its hub's feed, decided in one place: `FleetSync` syncs by it, and the
/// health reading (`quotectl check`, the metrics, the daemon's STATUS= line) counts by it, so a
/// source the spoke syncs is a source it watches — a hub's custom list the spoke's configuration
/// never names included.
public struct FleetScope: Sendable {
    /// The interval of a source this configuration does not name (one of the hub's custom lists)
    /// when no configured source comes from the feed either.
    public static let defaultInterval = 3_600

    public let configuration: Configuration

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Whether the feed answers for `name`: not when the configuration gives it a url of its
    /// own or turns it off.
    public func answers(for name: String) -> Bool {
        guard let configured = configuration.source(named: name) else { return true }
        return configured.enabled && !configured.urlIsOwn
    }

    /// Whether the configuration has a section for `name`, rather than having it only by default:
    /// such a source the feed lacks fails, where one it has by default is passed over.
    public func names(_ name: String) -> Bool {
        (configuration.source(named: name)?.line ?? 0) > 0
    }

    /// How often the feed is read: a fed source the configuration does not name (a hub's list)
    /// has no schedule of its own and syncs whenever one of the configured sources from the feed
    /// does, so at the shortest of their intervals.
    public var feedInterval: Int {
        configuration.enabledSources.filter { !$0.urlIsOwn }.map(\.interval).min() ?? Self.defaultInterval
    }

    /// The settings a fed source syncs with, before the feed's URL and limits are put in: its
    /// own where configured (interval, allow_shrink), else the defaults at the feed's interval.
    public func settings(for name: String) -> SourceSettings {
        configuration.source(named: name)
            ?? SourceSettings(name: name, kind: SourceName.kind(of: name) ?? .custom, enabled: true, url: "", interval: feedInterval)
    }

    /// The sources the feed answers for, by name, given those it brought before (`fed`): each it
    /// brought and every enabled one without a url of its own, unless the configuration keeps it
    /// off the feed. A feed that cannot be read fails each of them.
    public func sources(fed: [String]) -> [SourceSettings] {
        let configured = configuration.enabledSources.filter { !$0.urlIsOwn }.map(\.name)
        return Set(fed + configured).sorted().filter(answers(for:)).map(settings(for:))
    }

    /// The sources a spoke's sync brings or fails, so the ones to watch: those of `sources(fed:)`,
    /// except — once the feed has brought something — one the configuration has only by default
    /// and the feed never brought: the sync passes it over with no failure (a hub that does not
    /// publish Breaking Bad must not leave every spoke stale until each is edited).
    public func watched(fed: [String]) -> [SourceSettings] {
        sources(fed: fed).filter { fed.isEmpty || fed.contains($0.name) || names($0.name) }
    }
}
