import QuoteConfig

/// One source's sync as the engine runs it, from its store's opening to its report.
struct SourceRun {
    let settings: SourceSettings
    /// The Unix time the sync counts as its start (recorded, and due times counted from).
    let now: Int
    let started: ContinuousClock.Instant
    let transaction: SourceTransaction
    let turn: WriteTurn

    /// Seconds since the sync started.
    func elapsed() -> Double {
        let duration = ContinuousClock.now - started
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
