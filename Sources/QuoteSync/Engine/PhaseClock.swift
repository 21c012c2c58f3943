import QuoteScheduling

/// Times the phases of one sync: each `mark` closes the phase that ran since the last one.
struct PhaseClock {
    private(set) var phases: [SourceReport.Phase] = []
    private var last = ContinuousClock.now

    mutating func mark(_ name: String, at instant: ContinuousClock.Instant = .now) {
        let duration = instant - last
        phases.append(SourceReport.Phase(name: name, seconds: Double(duration.components.seconds)
                                         + Double(duration.components.attoseconds) / 1e18))
        last = instant
    }
}
