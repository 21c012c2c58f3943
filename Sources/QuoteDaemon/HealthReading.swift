import QuoteBase
import QuoteConfig
import QuoteHealth
import QuoteScheduling
import QuoteStore

/// One reading of the store's health, taken off the actor after the store work it follows: the
/// sources for the status line, and the metrics written to the textfile when one is configured.
public struct HealthReading: Sendable {
    let scope: HealthScope
    let daemon: DaemonHealth
    let textfile: MetricsTextfile?
    let logger: Logger

    public init(scope: HealthScope, daemon: DaemonHealth, textfile: MetricsTextfile?, logger: Logger) {
        self.scope = scope
        self.daemon = daemon
        self.textfile = textfile
        self.logger = logger
    }

    /// The sources as the store has them now, or nil when it could not say (the textfile then
    /// keeps its last reading).
    public func take(from store: Store) -> [SourceHealth]? {
        let read: (sources: [SourceHealth], spokeFeed: FeedHealth?)
        do {
            read = try HealthQuery(database: store.database).snapshot(scope)
        } catch {
            logger.debug("metrics: could not read the store: \(error)")
            return nil
        }
        if let textfile {
            let snapshot = MetricsSnapshot(version: QuotedVersion.current, scope: scope, sources: read.sources,
                                           spokeFeed: read.spokeFeed, daemon: daemon)
            textfile.write(PrometheusText.render(snapshot), logger: logger)
        }
        return read.sources
    }
}
