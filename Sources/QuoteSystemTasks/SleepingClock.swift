import QuoteSystem

/// A `MonotonicClock` a task can sleep on: the scheduler's wake-ups, a host's rate-limit second,
/// the pauses between requests. The real one is the system's; tests move a `ManualClock` or skip
/// the waits with a `SkippingClock`.
public protocol SleepingClock: MonotonicClock {
    /// Suspends until `deadline` on this clock; throws CancellationError when cancelled.
    func sleep(until deadline: Duration) async throws
}

extension SleepingClock {
    public func sleep(for duration: Duration) async throws { try await sleep(until: now + duration) }
}

extension SystemClock: SleepingClock {
    /// ContinuousClock counts CLOCK_BOOTTIME too, so the deadline is the same instant on both.
    public func sleep(until deadline: Duration) async throws {
        try await Task.sleep(until: ContinuousClock.now + (deadline - now), clock: .continuous)
    }
}
