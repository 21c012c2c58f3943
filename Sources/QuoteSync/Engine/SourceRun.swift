import QuoteConfig
import QuoteStore
import QuoteSystem

/// One source's sync as the engine runs it, from its store's opening to its report.
struct SourceRun {
    let settings: SourceSettings
    /// The Unix time the sync counts as its start (recorded, and due times counted from).
    let now: Int
    /// When it started, on the engine's clock.
    let started: Duration
    let clock: any MonotonicClock
    let transaction: SourceTransaction
    let turn: WriteTurn

    /// Seconds since the sync started.
    func elapsed() -> Double {
        let duration = clock.now - started
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Milliseconds since the sync started, for the store's last duration.
    func elapsedMilliseconds() -> Int {
        let milliseconds = (elapsed() * 1000).rounded()
        return milliseconds < Double(Int32.max) ? max(0, Int(milliseconds)) : Int(Int32.max)
    }
}
