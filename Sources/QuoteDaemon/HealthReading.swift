import QuoteBase
import QuoteConfig
import QuoteHealth
import QuoteScheduling
import QuoteStore
import Synchronization

/// One reading of the store's health, taken off the actor after the store work it follows: the
/// sources for the status line, and the metrics written to the textfile when one is configured.
public struct HealthReading: Sendable {
    let scope: HealthScope
    let daemon: DaemonHealth
    let textfile: MetricsTextfile?
    let logger: Logger
    let order: ReadingOrder

    public init(scope: HealthScope, daemon: DaemonHealth, textfile: MetricsTextfile?, logger: Logger,
                order: ReadingOrder = ReadingOrder()) {
        self.scope = scope
        self.daemon = daemon
        self.textfile = textfile
        self.logger = logger
        self.order = order
    }

    /// A reading, numbered in the order readings were taken.
    public struct Taken: Sendable {
        public let sequence: Int
        public let sources: [SourceHealth]
    }

    /// The sources as the store has them now, or nil when it could not say (the textfile then
    /// keeps its last reading). Readings of one order are taken and written one at a time: two
    /// syncs ending together must not rename an older reading over a newer one, or the counters
    /// in the file would go back (which `rate()` takes for a restart).
    public func take(from store: Store) -> Taken? {
        order.state.withLock { state in
            let read: (sources: [SourceHealth], spokeFeed: FeedHealth?)
            do {
                read = try scope.read(store.health.rows)
            } catch {
                logger.debug("metrics: could not read the store: \(error)")
                return nil
            }
            state.sequence += 1
            var daemon = self.daemon
            // Made on the actor before the wait: a reading made earlier may be taken later.
            daemon.syncsTotal = max(daemon.syncsTotal, state.syncsWritten)
            state.syncsWritten = daemon.syncsTotal
            if let textfile {
                let snapshot = MetricsSnapshot(version: QuotedVersion.current, scope: scope, sources: read.sources,
                                               spokeFeed: read.spokeFeed, daemon: daemon)
                textfile.write(PrometheusText.render(snapshot), logger: logger)
            }
            return Taken(sequence: state.sequence, sources: read.sources)
        }
    }
}

/// What orders the readings of one daemon: how many were taken, and the daemon's syncs counter
/// as last written.
public final class ReadingOrder: Sendable {
    struct State {
        var sequence = 0
        var syncsWritten = 0
    }

    let state = Mutex(State())

    public init() {}
}
