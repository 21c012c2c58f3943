import CSystem
import Glibc

/// This process: who it runs as, on which host, how it takes signals, and how it ends.
public enum CurrentProcess {
    public static var id: pid_t { getpid() }
    /// The real user and group (whom a control socket's peers are compared with).
    public static var userID: uid_t { getuid() }
    public static var groupID: gid_t { getgid() }
    /// The effective user (root may hand files it makes to the store's owner).
    public static var effectiveUserID: uid_t { geteuid() }

    /// The host's name (gethostname), or nil when it has none.
    public static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The file this program runs from (/proc/self/exe), or nil when it cannot be read.
    public static func executablePath() -> String? {
        guard let path = try? FileSystem.readLink("/proc/self/exe"), !path.isEmpty else { return nil }
        return path
    }

    /// A write to a pipe nobody reads fails with EPIPE, which the writer sees and reports,
    /// instead of killing the process mid-line.
    public static func ignoreBrokenPipe() { _ = signal(SIGPIPE, SIG_IGN) }

    /// Makes `numbers` write their number (one byte) to a pipe, from an async-signal-safe
    /// handler; the pipe's read end, which lives as long as the process. Call once.
    public static func signalPipe(_ numbers: [Int32]) throws(Errno) -> Descriptor {
        let raw = numbers.withUnsafeBufferPointer { quoted_signal_pipe($0.baseAddress, Int32($0.count)) }
        guard raw >= 0 else { throw Errno.current }
        return Descriptor(raw)
    }

    /// Blocks this thread for `duration` (a wait a synchronous caller has no clock to wait on).
    public static func pause(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var interval = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var rest = timespec()
        while nanosleep(&interval, &rest) != 0 && errno == EINTR { interval = rest }
    }

    /// Ends the process with `status`, running exit handlers (stdio is flushed).
    public static func exit(_ status: Int32) -> Never { Glibc.exit(status) }
}
