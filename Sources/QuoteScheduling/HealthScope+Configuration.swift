import QuoteConfig
import QuoteHealth
import QuoteModels

extension HealthScope {
    /// What a configuration asks to be watched: its enabled sources (never the built-in set), the
    /// folder it publishes to; on a spoke, the sources it syncs from a URL of its own and those
    /// it takes from the hub's feed — as `FleetScope` decides for the sync itself.
    public init(_ configuration: Configuration) {
        let enabled = configuration.enabledSources.filter { $0.name != SourceName.builtin }
        guard let fleet = configuration.fleet else {
            self.init(sources: enabled.map { HealthScope.Source($0, fromFeed: false) }, publishFolder: configuration.publish?.dir)
            return
        }
        let scope = FleetScope(configuration)
        self.init(manifestURL: fleet.manifestURL, feedName: fleet.name, publishFolder: configuration.publish?.dir) { fed in
            let watched = scope.watched(fed: fed)
            let names = Set(watched.map(\.name))
            // The configuration's order first, then the feed's other sources by name.
            let configured = enabled.filter { $0.urlIsOwn || names.contains($0.name) }
            let unconfigured = watched.filter { configuration.source(named: $0.name) == nil && $0.name != SourceName.builtin }
            return configured.map { HealthScope.Source($0, fromFeed: !$0.urlIsOwn) } + unconfigured.map { HealthScope.Source($0, fromFeed: true) }
        }
    }
}

extension HealthScope.Source {
    init(_ settings: SourceSettings, fromFeed: Bool) {
        self.init(name: settings.name, intervalSeconds: settings.interval, fromFeed: fromFeed)
    }
}

extension HealthThresholds {
    /// `[check]` of the configuration.
    public init(_ settings: CheckSettings) {
        self.init(staleAfterIntervals: settings.staleAfterIntervals, criticalAfterSeconds: settings.criticalAfter)
    }
}
