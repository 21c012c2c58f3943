import Glibc

/// The one error of a failed system call: its errno, with the words strerror(3) gives it.
/// Every EINTR retry of the project lives here, in `retrying`.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The errno the last failed call left behind (read it before any other call).
    public static var current: Errno { Errno(errno) }

    /// "Permission denied".
    public var description: String { Self.describe(code) }

    /// In the user's language where a program opened its catalog (glibc's own libc.mo, as
    /// coreutils shows it): the locale is set before the words are asked for, whichever comes first,
    /// so one run never mixes the two. The daemon opens none: the journal reads English.
    public static func describe(_ code: Int32) -> String {
        _ = MessageCatalog.isActive
        return String(cString: strerror(code))
    }

    public static let interrupted = Errno(EINTR)
    public static let wouldBlock = Errno(EAGAIN)
    public static let brokenPipe = Errno(EPIPE)
    public static let connectionReset = Errno(ECONNRESET)
    public static let noSuchFile = Errno(ENOENT)

    /// Runs `call` (a system call returning -1 on failure) until it is not interrupted by a
    /// signal; its result, or the errno it failed with.
    @inlinable
    public static func retrying<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result {
        while true {
            let result = call()
            if result >= 0 { return result }
            let failure = Errno.current
            if failure != .interrupted { throw failure }
        }
    }

    /// For calls that return their error instead of setting errno (posix_spawn, pthread_*).
    @inlinable
    public static func check(_ result: Int32) throws(Errno) {
        if result != 0 { throw Errno(result) }
    }

    /// True for the errors of a descriptor that has nothing for us right now (EAGAIN, EWOULDBLOCK).
    public var isWouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }
}
