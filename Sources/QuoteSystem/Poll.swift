import Glibc

/// poll(2) over descriptors, with the wait bounded and EINTR absorbed.
public enum Poll {
    /// Waits until one of `entries` is ready or `timeout` passes (nil: no limit). Returns
    /// whether anything is ready; the entries' `revents` say what. An interrupted wait is
    /// resumed with what was left of the timeout.
    public static func wait(_ entries: inout [pollfd], timeout: Duration?) throws(Errno) -> Bool {
        let clock = SystemClock()
        let deadline = timeout.map { clock.now + $0 }
        while true {
            let milliseconds = clock.pollTimeout(until: deadline)
            let ready = entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
            if ready >= 0 { return ready > 0 }
            let failure = Errno.current
            if failure != .interrupted { throw failure }
        }
    }

    /// One poll(2) with a timeout in milliseconds (-1: none), for loops that work out their
    /// own timeout each time round: an interruption returns false (nothing ready) and the
    /// caller's loop recomputes.
    public static func once(_ entries: inout [pollfd], milliseconds: Int32) throws(Errno) -> Bool {
        let ready = entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
        if ready >= 0 { return ready > 0 }
        let failure = Errno.current
        if failure == .interrupted { return false }
        throw failure
    }

    /// Waits for one descriptor to be ready for `events`; false when `timeout` passed first.
    public static func wait(for events: Int16, on descriptor: Descriptor, timeout: Duration?) throws(Errno) -> Bool {
        var entries = [pollfd(fd: descriptor.rawValue, events: events, revents: 0)]
        return try wait(&entries, timeout: timeout)
    }
}
