import QuoteScheduling
import QuoteSystem

/// Times the phases of one sync on the engine's clock: each `mark` closes the phase that ran
/// since the last one.
struct PhaseClock {
    private(set) var phases: [SourceReport.Phase] = []
    private let clock: any MonotonicClock
    private var last: Duration

    init(clock: any MonotonicClock) {
        self.clock = clock
        last = clock.now
    }

    /// Closes the phase `name` now, or at `instant` (an earlier reading of the same clock).
    mutating func mark(_ name: String, at instant: Duration? = nil) {
        let instant = instant ?? clock.now
        let duration = instant - last
        phases.append(SourceReport.Phase(name: name, seconds: Double(duration.components.seconds)
                                         + Double(duration.components.attoseconds) / 1e18))
        last = instant
    }
}
