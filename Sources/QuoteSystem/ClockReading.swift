import Glibc

/// The system clocks read as they are, for what must carry their values themselves: a log
/// line's wall-clock time, a feed manifest's serial and systemd's MONOTONIC_USEC. Deadlines and
/// waits are kept on an injected `MonotonicClock` instead, so tests can move them.
public enum ClockReading {
    /// CLOCK_REALTIME: seconds since 1970 and the nanoseconds past them.
    public static func wallClock() -> (seconds: Int, nanoseconds: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return (Int(now.tv_sec), Int(now.tv_nsec))
    }

    /// CLOCK_MONOTONIC in microseconds: the clock systemd compares a RELOADING=1's time with.
    public static func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
    }
}
