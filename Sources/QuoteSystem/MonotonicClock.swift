import Glibc

/// Monotonic time for every part that waits or keeps a deadline (the control socket's
/// per-request deadline, the scheduler's wake-ups, a host's rate-limit second, a child's stop
/// grace): the real clock in the daemon, a clock a test moves by hand in the tests — so no
/// test waits a real timeout out.
///
/// Instants are durations since the clock's own origin. Reading it needs no concurrency runtime:
/// quotectl keeps its deadlines on it without linking one; the daemon's tasks sleep on it as a
/// `SleepingClock` (QuoteSystemTasks).
public protocol MonotonicClock: Sendable {
    /// Time since the clock's origin. Never goes back.
    var now: Duration { get }

    /// Registers `moved`, called whenever the clock is moved by hand: how a thread blocked in
    /// poll(2) with a timeout worked out from this clock learns to look again. The real
    /// clock is never moved by hand and never calls it.
    func whenMoved(_ moved: @escaping @Sendable () -> Void)
}

extension MonotonicClock {
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

/// The system's monotonic clock, CLOCK_BOOTTIME (what ContinuousClock reads on Linux): it keeps
/// counting while the machine sleeps, so a sync due in an hour is due an hour later in real
/// time. Its origin is the boot.
public struct SystemClock: MonotonicClock {
    public init() {}

    public var now: Duration {
        var reading = timespec()
        clock_gettime(CLOCK_BOOTTIME, &reading)
        return .seconds(reading.tv_sec) + .nanoseconds(reading.tv_nsec)
    }

    public func whenMoved(_ moved: @escaping @Sendable () -> Void) {}
}
