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
    /// never blocks on a full pipe); its standard output is this process's. Past the deadline
    /// it gets SIGTERM, then SIGKILL after `grace`, and is reaped. Blocking: call from a
    /// thread that may wait.
    public static func runBounded(_ executable: String, arguments: [String], timeout: Duration,
                                  grace: Duration = .seconds(1), errorLimit: Int = 4_096) throws(Errno) -> BoundedOutcome {
        var started = try spawn(executable, arguments: arguments, error: .pipe)
        let process = started.process
        guard let reader = started.error.take() else { return .finished(process.wait(), errorText: "") }
        let clock = SystemClock()
        let deadline = clock.now + timeout
        var kept: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        var ended = false
        while !ended {
            let left = deadline - clock.now
            guard left > .zero, (try? Poll.wait(for: Int16(POLLIN), on: reader.io, timeout: left)) == true else { break }
            // Readable or hung up: a read of 0 (or an error) is the end of its stderr.
            guard let count = try? reader.io.read(into: &chunk), count > 0 else {
                ended = true
                break
            }
            kept.append(contentsOf: chunk[0..<min(count, max(0, errorLimit - kept.count))])
        }
        reader.close()
        guard ended else {
            process.terminate(grace: grace, clock: clock)
            _ = process.wait()
            return .timedOut
        }
        return .finished(process.wait(), errorText: String(decoding: kept, as: UTF8.self))
    }
}
