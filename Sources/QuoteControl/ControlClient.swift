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
    private let connection: FileDescriptor
    private let clock = SystemClock()
    private var buffer: [UInt8] = []
    /// A reply already read (by `connect(sending:)`), handed out first.
    private var peeked: ControlReply?
    private let silence: Int
    /// The pid of the process at the other end (SO_PEERCRED), for messages.
    public let peerPID: Int?

    public enum Failure: Error, Equatable, Sendable {
        /// Nothing listens there (no daemon running): fall back to syncing directly.
        case notRunning
        /// What went wrong, English where it is machine output (status --json) and translated where a person reads it.
        case refused(Message)
        case broken(Message)
        /// Connected, but the daemon said nothing for the allowed time.
        case notAnswering(pid: Int?)
    }

    /// Connects to the socket at `path`. `silence` (seconds) is the longest the daemon may say
    /// nothing — while accepting, while reading what we send, before each reply line.
    public init(path: String, silence: Int = ControlProtocol.silenceLimit) throws(Failure) {
        let socket: FileDescriptor
        do { socket = try FileDescriptor.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue)) } catch {
            throw .broken("socket: \(error)")
        }
        guard var address = UnixSocketAddress(path) else { throw .broken(declared("socket path too long: \(path)")) }
        self.silence = max(1, silence)
        let deadline = clock.now + .seconds(self.silence)
        // A listener whose backlog is full (a stopped daemon stops accepting) answers EAGAIN at once:
        // try again until the deadline instead of blocking in connect(2).
        while address.connect(socket.rawValue) != 0 {
            let failure = Errno.current
            if failure == .interrupted { continue }
            if failure.isWouldBlock, clock.now < deadline {
                CurrentProcess.pause(for: .milliseconds(20))
                continue
            }
            switch failure.code {
            case ENOENT, ECONNREFUSED: throw .notRunning
            case EACCES, EPERM: throw .refused(declared("\(path): permission denied"))
            case EAGAIN: throw .notAnswering(pid: nil)
            default: throw .broken("\(path): \(failure)")
            }
        }
        peerPID = socket.io.peerCredentials().flatMap { $0.pid > 0 ? Int($0.pid) : nil }
        connection = socket
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
            if let first, ControlRefusal(first) == .busy, waited < patience {
                CurrentProcess.pause(for: .microseconds(Int64(pause * 1_000_000)))
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
        let deadline = clock.now + .seconds(silence)
        while sent < bytes.count {
            do throws(Errno) {
                sent += try bytes[sent...].withUnsafeBytes { raw in Result { () throws(Errno) in try connection.io.send(raw) } }.get()
            } catch {
                if error.isWouldBlock {
                    try wait(for: Int16(POLLOUT), until: deadline)
                    continue
                }
                // The daemon may answer (a refusal) and close before reading: read its reply.
                if error == .brokenPipe || error == .connectionReset { return }
                throw .broken("send: \(error)")
            }
        }
    }

    /// The next reply line, or nil when the daemon closed the connection.
    public func nextReply() throws(Failure) -> ControlReply? {
        if let reply = peeked {
            peeked = nil
            return reply
        }
        let deadline = clock.now + .seconds(silence)
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return ControlReply(line: line)
            }
            let count: Int
            do throws(Errno) {
                count = try connection.io.receive(into: &chunk)
            } catch {
                if error.isWouldBlock {
                    try wait(for: Int16(POLLIN), until: deadline)
                    continue
                }
                throw .broken("receive: \(error)")
            }
            if count == 0 {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return ControlReply(line: String(decoding: buffer, as: UTF8.self))
            }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Waits until the socket is ready for `events`; past `deadline`, the daemon is not answering.
    private func wait(for events: Int16, until deadline: Duration) throws(Failure) {
        let left = deadline - clock.now
        guard left > .zero else { throw .notAnswering(pid: peerPID) }
        do {
            _ = try Poll.wait(for: events, on: connection.io, timeout: left)
        } catch {
            throw .broken("poll: \(error)")
        }
    }
}
