import Glibc

/// Signals sent to another process of this user (kill(2)).
public enum ProcessSignal {
    /// SIGUSR1: what a follower takes as "show another one now".
    public static let another = SIGUSR1
    /// The signals that ask a process to stop.
    public static let stopping = [SIGTERM, SIGINT, SIGHUP]

    /// Sends `number` to `pid`; ESRCH (no such process) and EPERM (another user's) come back as the Errno.
    public static func send(_ number: Int32, to pid: Int32) throws(Errno) {
        guard pid > 1 else { throw Errno(ESRCH) }
        if kill(pid, number) != 0 { throw Errno.current }
    }
}
