import QuoteSystem

/// A manifest's serial: milliseconds since 1970, or one more than the previous serial when
/// that is higher. A hub publishes more than once a second only in bursts (every source of a
/// start syncing at once), so its serial stays within milliseconds of its clock, and a hub whose
/// feed folder was lost starts above every serial it wrote. Hubs before this counted in seconds:
/// a serial below `secondsBelow` is one of theirs, and compares as that many thousand
/// milliseconds, so a spoke that holds one takes its upgraded hub's first serial and still
/// refuses a rollback.
public enum FeedSerial {
    /// 10^11 seconds is the year 5138; 10^11 milliseconds is March 1973, before any feed.
    public static let secondsBelow = 100_000_000_000

    /// The wall clock in milliseconds since 1970.
    public static func now() -> Int {
        let wall = ClockReading.wallClock()
        return wall.seconds * 1_000 + wall.nanoseconds / 1_000_000
    }

    /// `serial` in milliseconds: a seconds serial of an older hub times 1000 (it is below
    /// 10^11, so the product fits); a negative one, which no manifest holds, as it is.
    public static func milliseconds(_ serial: Int) -> Int {
        (0..<secondsBelow).contains(serial) ? serial * 1_000 : serial
    }

    /// Whether `serial` is older than `held`, whichever unit each was written in.
    public static func isOlder(_ serial: Int, than held: Int) -> Bool {
        milliseconds(serial) < milliseconds(held)
    }

    /// The serial after `previous` (nil: none is known) at `now` milliseconds; nil when
    /// `previous` leaves no room below the largest serial a manifest may hold.
    public static func next(after previous: Int?, now: Int) -> Int? {
        guard let previous else { return now }
        let following = milliseconds(previous).addingReportingOverflow(1)
        guard !following.overflow, following.partialValue <= Manifest.largestSerial else { return nil }
        return max(following.partialValue, now)
    }
}
