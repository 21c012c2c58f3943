import Glibc
import QuoteBase

/// A client of the daemon's control socket, without Foundation (quotectl uses it).
public final class ControlClient {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// A reply already read (by `connect(sending:)`), handed out first.
    private var peeked: ControlReply?

    public enum Failure: Error, Equatable, Sendable {
        /// Nothing listens there (no daemon running): fall back to syncing directly.
        case notRunning
        case refused(String)
        case broken(String)
    }

    /// Connects to the socket at `path`; with `timeout` (seconds), a daemon that
    /// stops answering for that long ends the wait.
    public init(path: String, timeout: Int = 0) throws(Failure) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .broken("socket: \(String(cString: strerror(errno)))") }
        guard var address = UnixSocketAddress(path) else {
            close(fd)
            throw .broken("socket path too long: \(path)")
        }
        let connected = address.connect(fd)
        if connected != 0 {
            let code = errno
            close(fd)
            switch code {
            case ENOENT, ECONNREFUSED: throw .notRunning
            case EACCES, EPERM: throw .refused("\(path): permission denied")
            default: throw .broken("\(path): \(String(cString: strerror(code)))")
            }
        }
        if timeout > 0 {
            var limit = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        descriptor = fd
    }

    /// Connects to the first candidate where a daemon answers; nil when none does.
    public static func connectToDaemon(candidates: [String], timeout: Int = 0) throws(Failure) -> ControlClient? {
        for path in candidates {
            do {
                return try ControlClient(path: path, timeout: timeout)
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
    public static func connect(sending request: ControlRequest, candidates: [String], timeout: Int = 0,
                               patience: Double = 3) throws(Failure) -> ControlClient? {
        var waited = 0.0
        var pause = 0.05
        while true {
            guard let client = try connectToDaemon(candidates: candidates, timeout: timeout) else { return nil }
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
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EINTR { continue }
                // The daemon may answer (a refusal) and close before reading: read its reply.
                if errno == EPIPE || errno == ECONNRESET { return }
                throw .broken("send: \(String(cString: strerror(errno)))")
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
                if errno == EAGAIN || errno == EWOULDBLOCK { throw .broken("the daemon did not answer in time") }
                throw .broken("receive: \(String(cString: strerror(errno)))")
            }
            if count == 0 {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return ControlReply(line: String(decoding: buffer, as: UTF8.self))
            }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}
