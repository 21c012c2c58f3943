import CSystem
import Glibc

/// An open file descriptor that this value owns: closed exactly once, by `close()` or, if
/// nobody did, when the value goes away. It cannot be copied, so no two owners can close it
/// (or one close another's reuse of the number). Operations go through `io`.
public struct FileDescriptor: ~Copyable, Sendable {
    public let rawValue: Int32

    /// Takes ownership of `rawValue`, a descriptor some call just returned.
    public init(adopting rawValue: Int32) { self.rawValue = rawValue }

    deinit { _ = Glibc.close(rawValue) }

    /// Closes it now. Errors from close(2) are not reported: the descriptor is gone either way
    /// (on Linux, retrying after EINTR could close someone else's), and what was written is
    /// checked by fsync where it matters.
    public consuming func close() {
        let raw = rawValue
        discard self
        _ = Glibc.close(raw)
    }

    /// Gives up ownership without closing (the number now belongs to the caller, or to a child
    /// process that inherits it).
    public consuming func release() -> Int32 {
        let raw = rawValue
        discard self
        return raw
    }

    /// The operations, on a view that does not own the descriptor.
    public var io: Descriptor { Descriptor(rawValue) }

    /// open(2), close-on-exec always.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) -> FileDescriptor {
        FileDescriptor(adopting: try Errno.retrying { Glibc.open(path, flags | O_CLOEXEC, mode) })
    }

    /// socket(2), close-on-exec always.
    public static func socket(_ domain: Int32, _ type: Int32) throws(Errno) -> FileDescriptor {
        FileDescriptor(adopting: try Errno.retrying { Glibc.socket(domain, type | Int32(SOCK_CLOEXEC.rawValue), 0) })
    }

    /// A pipe whose ends no child process inherits unless handed over on purpose.
    public static func pipe() throws(Errno) -> Pipe {
        var ends: [Int32] = [-1, -1]
        guard quoted_pipe_cloexec(&ends) == 0 else { throw Errno.current }
        return Pipe(read: FileDescriptor(adopting: ends[0]), write: FileDescriptor(adopting: ends[1]))
    }
}

/// The two ends of a pipe, each owned.
@frozen public struct Pipe: ~Copyable, Sendable {
    public var read: FileDescriptor
    public var write: FileDescriptor
}

/// A descriptor that this value does not own (standard streams, or an owner's `io`): the
/// system calls, each retried on EINTR and failing with `Errno`.
public struct Descriptor: Sendable, Equatable {
    public let rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = Descriptor(0)
    public static let standardOutput = Descriptor(1)
    public static let standardError = Descriptor(2)

    /// read(2) into `buffer`: the count read, 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try Errno.retrying { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads into `buffer` from `offset` on; the count read.
    public func read(into buffer: inout [UInt8], from offset: Int = 0) throws(Errno) -> Int {
        let result = buffer[offset...].withUnsafeMutableBytes { raw in Result { () throws(Errno) in try read(into: raw) } }
        return try result.get()
    }

    /// Writes every byte (short writes continued). A failure says how many went out before it.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let count = try Errno.retrying { Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset) }
            if count == 0 { throw Errno(EIO) }
            offset += count
        }
    }

    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        try bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try writeAll(raw) } }.get()
    }

    public func writeAll(_ text: String) throws(Errno) { try writeAll(Array(text.utf8)) }

    /// send(2), never raising SIGPIPE.
    public func send(_ bytes: UnsafeRawBufferPointer, flags: Int32 = 0) throws(Errno) -> Int {
        try Errno.retrying { Glibc.send(rawValue, bytes.baseAddress, bytes.count, flags | Int32(MSG_NOSIGNAL)) }
    }

    /// recv(2): the count received, 0 when the peer closed.
    public func receive(into buffer: UnsafeMutableRawBufferPointer, flags: Int32 = 0) throws(Errno) -> Int {
        try Errno.retrying { Glibc.recv(rawValue, buffer.baseAddress, buffer.count, flags) }
    }

    /// Receives into `buffer` from its start; the count received.
    public func receive(into buffer: inout [UInt8], flags: Int32 = 0) throws(Errno) -> Int {
        try buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try receive(into: raw, flags: flags) } }.get()
    }

    /// fstat(2).
    public func status() throws(Errno) -> stat {
        var status = stat()
        _ = try Errno.retrying { fstat(rawValue, &status) }
        return status
    }

    /// Turns O_NONBLOCK on or off.
    public func setNonBlocking(_ on: Bool) {
        let flags = fcntl(rawValue, F_GETFL)
        guard flags >= 0 else { return }
        _ = fcntl(rawValue, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
    }

    /// No more writes from this side (the peer reads the end), reads still possible.
    public func shutdownWriting() { _ = Glibc.shutdown(rawValue, Int32(SHUT_WR)) }

    public func sync() throws(Errno) { _ = try Errno.retrying { fsync(rawValue) } }

    /// futimens(2): the modification time set to `seconds`, the access time left as it is.
    public func setModificationTime(seconds: Int) throws(Errno) {
        // UTIME_OMIT ((1 << 30) - 2), which Glibc's module does not import.
        let times = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2), timespec(tv_sec: seconds, tv_nsec: 0)]
        _ = try Errno.retrying { times.withUnsafeBufferPointer { futimens(rawValue, $0.baseAddress) } }
    }

    /// An exclusive flock(2), waiting for it.
    public func lockExclusively() throws(Errno) { _ = try Errno.retrying { flock(rawValue, LOCK_EX) } }

    /// accept4(2) with close-on-exec; the new connection is the caller's.
    public func accept() throws(Errno) -> FileDescriptor {
        FileDescriptor(adopting: try Errno.retrying { quoted_accept_cloexec(rawValue) })
    }

    /// listen(2) with the system's largest backlog.
    public func listen() throws(Errno) { _ = try Errno.retrying { Glibc.listen(rawValue, SOMAXCONN) } }

    /// The process at the other end of a Unix socket (SO_PEERCRED).
    public func peerCredentials() -> (pid: pid_t, uid: uid_t, gid: gid_t)? {
        var pid: pid_t = 0, uid: uid_t = 0, gid: gid_t = 0
        guard quoted_peer_credentials(rawValue, &pid, &uid, &gid) == 0 else { return nil }
        return (pid, uid, gid)
    }

    /// Closes one of the standard streams at the end of a run (a pager reading our standard
    /// output sees its end). Every other descriptor is closed by the FileDescriptor owning it.
    public func closeStandardStream() {
        precondition(rawValue <= 2, "only a standard stream is closed through a borrowed descriptor")
        _ = Glibc.close(rawValue)
    }

    /// The width of the terminal it is, in columns (80 when the terminal does not say), or 0
    /// when it is not a terminal.
    public var terminalColumns: Int { Int(quoted_terminal_columns(rawValue)) }

    /// Makes this descriptor also be `target` (dup2), e.g. a pipe as standard output.
    public func duplicate(as target: Descriptor) throws(Errno) {
        _ = try Errno.retrying { dup2(rawValue, target.rawValue) }
    }
}
