import QuoteConfig
import QuoteDaemon
import QuoteScheduling
import QuoteSync

/// Runs syncs in the test process, through the engine: the daemon's scheduling without
/// child processes. (The daemon itself never links the sync engine.)
struct EngineRunner: SyncRunner {
    let engine: SyncEngine

    func sync(_ settings: SourceSettings, configuration: Configuration,
              progress: @escaping @Sendable (String) -> Void) async -> SourceReport {
        await engine.sync(settings, progress: progress)
    }
}
