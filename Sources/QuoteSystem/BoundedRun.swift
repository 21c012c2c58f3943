import CSystem
import Glibc

extension Subprocess {
    /// How a run with a deadline ended: the child's termination and the start of what it
    /// wrote on standard error, or that the deadline passed first (it was then stopped).
    public enum BoundedOutcome: Sendable, Equatable {
        case finished(Termination, errorText: String)
        case timedOut
    }

    /// Runs `executable` to its end or until `timeout` passes, whichever comes first: a
    /// program that waits on another (a bus, a server) must not hold its caller for ever.
    /// Its standard error is kept up to `errorLimit` bytes (the rest read and dropped, so it
    /// never blocks on a full pipe); its standard output is this process's, and its environment
    /// `environment` (nil: this process's own). Past the deadline it gets SIGTERM, then SIGKILL
    /// after `grace`, and is reaped. Blocking: call from a thread that may wait.
    public static func runBounded(_ executable: String, arguments: [String], environment: [String: String]? = nil, timeout: Duration,
                                  grace: Duration = .seconds(1), errorLimit: Int = 4_096) throws(Errno) -> BoundedOutcome {
        var started = try spawn(executable, arguments: arguments, environment: environment, error: .pipe)
        let process = started.process
        guard let reader = started.error.take() else { return .finished(process.wait(), errorText: "") }
        // Its end is watched through a pidfd, not its stderr's end alone: a child that closes
        // stderr and goes on (or a grandchild that keeps it open) is still held to the deadline.
        // Without pidfds (Linux before 5.3) the end of its stderr stands for its end.
        let exitWatch = quoted_pidfd_open(process.pid)
        defer { if exitWatch >= 0 { Glibc.close(exitWatch) } }
        var kept: [UInt8] = []
        let ended = watch(reader.io, exit: exitWatch >= 0 ? Descriptor(exitWatch) : nil,
                          until: SystemClock().now + timeout, keeping: &kept, limit: errorLimit)
        reader.close()
        guard ended else {
            process.terminate(grace: grace)
            _ = process.wait()
            return .timedOut
        }
        return .finished(process.wait(), errorText: String(decoding: kept, as: UTF8.self))
    }

    /// Reads `error` into `kept` (to `limit`) until the child ends — `exit` polls readable, or
    /// without one, `error` ends — or `deadline` passes (false).
    private static func watch(_ error: Descriptor, exit: Descriptor?, until deadline: Duration,
                              keeping kept: inout [UInt8], limit: Int) -> Bool {
        let clock = SystemClock()
        var entries = [pollfd(fd: error.rawValue, events: Int16(POLLIN), revents: 0)]
        if let exit { entries.append(pollfd(fd: exit.rawValue, events: Int16(POLLIN), revents: 0)) }
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let left = deadline - clock.now
            guard left > .zero, (try? Poll.wait(&entries, timeout: left)) == true else { return false }
            if entries[0].revents != 0 {
                if let count = try? error.read(into: &chunk), count > 0 {
                    kept.append(contentsOf: chunk[0..<min(count, max(0, limit - kept.count))])
                } else {
                    if exit == nil { return true }
                    entries[0].fd = -1  // its stderr ended; poll(2) passes over a negative descriptor
                }
            }
            if entries.count > 1, entries[1].revents != 0 {
                // Ended: what it wrote last is already in the pipe (read without waiting).
                while entries[0].fd >= 0, clock.now < deadline, (try? Poll.wait(for: Int16(POLLIN), on: error, timeout: .zero)) == true,
                      let count = try? error.read(into: &chunk), count > 0 {
                    kept.append(contentsOf: chunk[0..<min(count, max(0, limit - kept.count))])
                }
                return true
            }
        }
    }
}
