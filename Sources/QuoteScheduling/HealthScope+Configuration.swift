import QuoteConfig
import QuoteHealth
import QuoteModels

extension HealthScope {
    /// What a configuration asks to be watched: its enabled sources (never the built-in set),
    /// the hub it follows, the folder it publishes to.
    public init(_ configuration: Configuration) {
        let sources = configuration.enabledSources.filter { $0.name != SourceName.builtin }.map { settings in
            HealthScope.Source(name: settings.name, intervalSeconds: settings.interval, hasOwnURL: settings.urlIsOwn)
        }
        self.init(sources: sources, manifestURL: configuration.fleet?.manifestURL, feedName: configuration.fleet?.name,
                  publishFolder: configuration.publish?.dir)
    }
}

extension HealthThresholds {
    /// `[check]` of the configuration.
    public init(_ settings: CheckSettings) {
        self.init(staleAfterIntervals: settings.staleAfterIntervals, criticalAfterSeconds: settings.criticalAfter)
    }
}
