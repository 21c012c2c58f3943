import CSystem
import Glibc
import QuoteBase
import QuoteSystem

/// A client of the daemon's control socket, without Foundation (quotectl uses it).
///
/// Nothing waits forever: the socket is non-blocking and every wait is a poll with a deadline.
/// A daemon that says nothing for `silence` seconds (stopped with SIGSTOP, wedged) is given up
/// with `.notAnswering`, naming its pid; a daemon working on a long sync is not, because it
/// sends a `waiting` line every `ControlProtocol.heartbeat`.
public final class ControlClient {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// A reply already read (by `connect(sending:)`), handed out first.
    private var peeked: ControlReply?
    private let silence: Int
    /// The pid of the process at the other end (SO_PEERCRED), for messages.
    public let peerPID: Int?

    public enum Failure: Error, Equatable, Sendable {
        /// Nothing listens there (no daemon running): fall back to syncing directly.
        case notRunning
        case refused(String)
        case broken(String)
        /// Connected, but the daemon said nothing for the allowed time.
        case notAnswering(pid: Int?)
    }

    /// Connects to the socket at `path`. `silence` (seconds) is the longest the daemon may say
    /// nothing — while accepting, while reading what we send, before each reply line.
    public init(path: String, silence: Int = ControlProtocol.silenceLimit) throws(Failure) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw .broken("socket: \(Errno.describe(errno))") }
        guard var address = UnixSocketAddress(path) else {
            close(fd)
            throw .broken("socket path too long: \(path)")
        }
        self.silence = max(1, silence)
        let deadline = Self.deadline(after: self.silence)
        // A listener whose backlog is full (a stopped daemon stops accepting) answers EAGAIN at once:
        // try again until the deadline instead of blocking in connect(2).
        while address.connect(fd) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN, Self.milliseconds(until: deadline) > 0 {
                usleep(20_000)
                continue
            }
            close(fd)
            switch code {
            case ENOENT, ECONNREFUSED: throw .notRunning
            case EACCES, EPERM: throw .refused("\(path): permission denied")
            case EAGAIN: throw .notAnswering(pid: nil)
            default: throw .broken("\(path): \(Errno.describe(code))")
            }
        }
        var pid: pid_t = 0, uid: uid_t = 0, gid: gid_t = 0
        peerPID = quoted_peer_credentials(fd, &pid, &uid, &gid) == 0 && pid > 0 ? Int(pid) : nil
        descriptor = fd
    }

    /// Connects to the first candidate where a daemon answers; nil when none does.
    public static func connectToDaemon(candidates: [String], silence: Int = ControlProtocol.silenceLimit) throws(Failure) -> ControlClient? {
        for path in candidates {
            do {
                return try ControlClient(path: path, silence: silence)
            } catch .notRunning {
                continue
            }
        }
        return nil
    }

    deinit { close(descriptor) }

    /// Connects to the first candidate where a daemon answers and sends `request`. A daemon
    /// that is flooded answers "busy": that is retried, with growing pauses, for about
    /// `patience` seconds. Nil when no daemon runs.
    public static func connect(sending request: ControlRequest, candidates: [String], silence: Int = ControlProtocol.silenceLimit,
                               patience: Double = 3) throws(Failure) -> ControlClient? {
        var waited = 0.0
        var pause = 0.05
        while true {
            guard let client = try connectToDaemon(candidates: candidates, silence: silence) else { return nil }
            try client.send(request)
            let first = try client.nextReply()
            if let first, first.kind == "error", first.text.hasPrefix("busy"), waited < patience {
                usleep(useconds_t(pause * 1_000_000))
                waited += pause
                pause = min(pause * 2, 0.5)
                continue
            }
            client.peeked = first
            return client
        }
    }

    public func send(_ request: ControlRequest) throws(Failure) {
        let bytes = Array((request.line + "\n").utf8)
        var sent = 0
        let deadline = Self.deadline(after: silence)
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    try wait(for: Int16(POLLOUT), until: deadline)
                    continue
                }
                // The daemon may answer (a refusal) and close before reading: read its reply.
                if errno == EPIPE || errno == ECONNRESET { return }
                throw .broken("send: \(Errno.describe(errno))")
            }
            sent += count
        }
    }

    /// The next reply line, or nil when the daemon closed the connection.
    public func nextReply() throws(Failure) -> ControlReply? {
        if let reply = peeked {
            peeked = nil
            return reply
        }
        let deadline = Self.deadline(after: silence)
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return ControlReply(line: line)
            }
            var chunk = [UInt8](repeating: 0, count: 4_096)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    try wait(for: Int16(POLLIN), until: deadline)
                    continue
                }
                throw .broken("receive: \(Errno.describe(errno))")
            }
            if count == 0 {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return ControlReply(line: String(decoding: buffer, as: UTF8.self))
            }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    private func wait(for events: Int16, until deadline: timespec) throws(Failure) {
        while true {
            let left = Self.milliseconds(until: deadline)
            guard left > 0 else { throw .notAnswering(pid: peerPID) }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(clamping: left))
            if ready > 0 || (ready < 0 && errno != EINTR) { return }
        }
    }

    private static func deadline(after seconds: Int) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        now.tv_sec += seconds
        return now
    }

    private static func milliseconds(until deadline: timespec) -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return (deadline.tv_sec - now.tv_sec) * 1_000 + (deadline.tv_nsec - now.tv_nsec) / 1_000_000
    }
}
