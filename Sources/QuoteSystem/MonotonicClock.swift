/// Monotonic time for every part that waits or keeps a deadline (the control socket's
/// per-request deadline, the scheduler's wake-ups, a host's rate-limit second, a child's stop
/// grace): the real clock in the daemon, a clock a test moves by hand in the tests — so no
/// test waits a real timeout out.
///
/// Instants are durations since the clock's own origin.
public protocol MonotonicClock: Sendable {
    /// Time since the clock's origin. Never goes back.
    var now: Duration { get }

    /// Suspends until `deadline` on this clock; throws CancellationError when cancelled.
    func sleep(until deadline: Duration) async throws

    /// Registers `moved`, called whenever the clock is moved by hand: how a thread blocked in
    /// poll(2) with a timeout worked out from this clock learns to look again. The real
    /// clock is never moved by hand and never calls it.
    func whenMoved(_ moved: @escaping @Sendable () -> Void)
}

extension MonotonicClock {
    public func sleep(for duration: Duration) async throws { try await sleep(until: now + duration) }

    /// Milliseconds until `deadline` for poll(2): rounded up (a wait never ends early), 0 if
    /// past, -1 (no limit) for nil.
    public func pollTimeout(until deadline: Duration?) -> Int32 {
        guard let deadline else { return -1 }
        let left = deadline - now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        return overflow ? Int32.max : Int32(clamping: milliseconds + attoseconds / 1_000_000_000_000_000 + 1)
    }
}

/// The system's monotonic clock (CLOCK_BOOTTIME through ContinuousClock: it keeps counting
/// while the machine sleeps, so a sync due in an hour is due an hour later in real time).
public struct SystemClock: MonotonicClock {
    private static let origin = ContinuousClock.now

    public init() {}

    public var now: Duration { ContinuousClock.now - Self.origin }

    public func sleep(until deadline: Duration) async throws {
        try await Task.sleep(until: Self.origin + deadline, clock: .continuous)
    }

    public func whenMoved(_ moved: @escaping @Sendable () -> Void) {}
}
