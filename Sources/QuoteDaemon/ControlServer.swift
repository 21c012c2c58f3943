import CSystem
import Glibc
import QuoteBase
import QuoteConfig
import QuoteControl
import QuoteStore
import Synchronization

/// Writes reply lines to one control client. Writes after the client left are dropped.
/// Whether it is closed lives inside the lock that serialises the writes.
public final class ReplyWriter: Sendable {
    private let descriptor: Int32
    private struct State {
        /// False once the client stopped reading (or left): later lines are dropped.
        var writable = true
        /// The descriptor is closed; nothing more happens.
        var finished = false
    }

    private let state = Mutex(State())
    /// Called once, when the reply is finished (the server counts requests in progress).
    private let onFinish: @Sendable () -> Void

    init(descriptor: Int32, onFinish: @escaping @Sendable () -> Void = {}) {
        self.descriptor = descriptor
        self.onFinish = onFinish
    }

    public func send(_ reply: ControlReply) {
        state.withLock { state in
            guard state.writable, !state.finished else { return }
            let bytes = Array((reply.line + "\n").utf8)
            var sent = 0
            while sent < bytes.count {
                // Never blocks: a client that does not read its replies (the socket buffer,
                // about 200 KB, is full) is dropped rather than allowed to stall the daemon.
                let count = bytes[sent...].withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { state.writable = false; return }  // gone or not reading: stop writing, nothing else
                sent += count
            }
        }
    }

    public func send(_ kind: String, _ text: String = "") { send(ControlReply(kind: kind, text: text)) }

    public func finish(code: ExitCode) {
        send("end", String(code.rawValue))
        let wasOpen = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.finished = true
            shutdown(descriptor, Int32(SHUT_WR))
            // Unread request bytes would make close() reset the connection and the client
            // would lose our reply: read what is waiting first.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            var sink = [UInt8](repeating: 0, count: 4_096)
            var drained = 0
            while drained < 1 << 20 {
                let count = recv(descriptor, &sink, sink.count, 0)
                if count <= 0 { break }
                drained += count
            }
            close(descriptor)
            return true
        }
        if wasOpen { onFinish() }
    }
}

/// The control socket: a Unix stream socket (mode 0660) speaking ControlRequest.
///
/// One thread polls the listener and every connection still sending its request, so a
/// slow client costs a slot, not a thread. Each connection has ONE deadline for its
/// whole request line (`idleTimeout` after it was accepted: a client trickling a byte
/// every few seconds is dropped all the same); at most `maximumPending` connections
/// may be waiting for their request at once, and when a new one arrives beyond that,
/// the oldest waiting one is dropped to make room, so idle clients can never lock out a
/// well-behaved one. Peers are checked with SO_PEERCRED once their request is read.
/// Requests come out of `serve`, each answered in a child task of the caller's tree.
public final class ControlServer: Sendable {
    public typealias Handler = @Sendable (ControlRequest, ReplyWriter) async -> Void

    public let path: String
    private let policy: PeerPolicy
    private let logger: Logger
    private let idleTimeout: Int
    /// The listener and the write end of the stop pipe, while serving.
    private let endpoints = Mutex<(listener: Int32, wake: Int32)>((-1, -1))
    static let maximumPending = 64
    /// Requests being answered at once (a `sync` waits for its syncs): beyond this, "busy".
    static let maximumAnswering = 256
    private let answering = ManagedCounter()
    private let requests: AsyncStream<(ControlRequest, ReplyWriter)>
    private let incoming: AsyncStream<(ControlRequest, ReplyWriter)>.Continuation

    public enum StartError: Error, CustomStringConvertible {
        case alreadyRunning(String)
        case notASocket(String)
        case system(String)

        public var description: String {
            switch self {
            case .alreadyRunning(let path): return "another quoted answers on \(path)"
            case .notASocket(let problem): return problem
            case .system(let message): return message
            }
        }

        /// sysexits: 78 for a path the configuration got wrong, 75 when another daemon runs, else 71.
        public var exitCode: ExitCode {
            switch self {
            case .alreadyRunning: return .temporaryFailure
            case .notASocket: return .configuration
            case .system: return .osError
            }
        }
    }

    public init(path: String, policy: PeerPolicy = PeerPolicy(), logger: Logger, idleTimeout: Int = 5) {
        self.path = path
        self.policy = policy
        self.logger = logger
        self.idleTimeout = idleTimeout
        (requests, incoming) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Answers each request with `handler`, each in a child task, until the calling task is
    /// cancelled; then stops listening and returns once every answer in progress is done.
    public func serve(_ handler: @escaping Handler) async {
        await withDiscardingTaskGroup { answers in
            for await (request, writer) in requests {
                answers.addTask { await handler(request, writer) }
            }
        }
        stop()
    }

    /// Binds and starts serving on a thread of its own.
    public func start() throws(StartError) {
        let folder = Path.parent(of: path)
        if let problem = Path.makeDirectories(folder) { throw .system(problem) }
        // Only a socket is ever replaced (lstat: a link is not followed): a path that names
        // the store, or any other file, is a configuration mistake, not something to delete.
        if let problem = SocketPath.problem(path) { throw .notASocket(problem) }
        if Path.exists(path) {
            // A live daemon answers; a stale socket from a crash is removed.
            if (try? ControlClient(path: path)) != nil { throw .alreadyRunning(path) }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw .system("socket: \(String(cString: strerror(errno)))") }
        guard var address = UnixSocketAddress(path) else {
            close(fd)
            throw .notASocket("socket path too long (\(path.utf8.count) bytes, at most \(ConfigLimits.socketPathBytes)): \(path)")
        }
        guard address.bind(fd) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw .system("cannot listen on \(path): \(message)")
        }
        chmod(path, 0o660)
        guard listen(fd, SOMAXCONN) == 0 else { close(fd); throw .system("listen: \(String(cString: strerror(errno)))") }
        var wake: [Int32] = [-1, -1]
        guard quoted_pipe_cloexec(&wake) == 0 else { close(fd); throw .system("pipe: \(String(cString: strerror(errno)))") }
        endpoints.withLock { $0 = (fd, wake[1]) }
        let wakeReader = wake[0]
        guard BackgroundThread.start({ [self] in serveLoop(listener: fd, wake: wakeReader) }) else {
            stop()
            throw .system("cannot start the control socket's thread")
        }
    }

    public func stop() {
        let (fd, wake) = endpoints.withLock { endpoints in
            defer { endpoints = (-1, -1) }
            return endpoints
        }
        incoming.finish()
        guard fd >= 0 else { return }
        unlink(path)
        // The loop closes the listener and every pending connection when it sees this.
        var byte: UInt8 = 1
        _ = write(wake, &byte, 1)
        close(wake)
    }

    /// A connection still sending its request line.
    private struct Pending {
        let descriptor: Int32
        let accepted: ContinuousClock.Instant
        var line: [UInt8] = []
    }

    private func serveLoop(listener: Int32, wake: Int32) {
        var pending: [Pending] = []
        defer {
            for connection in pending { close(connection.descriptor) }
            close(listener)
            close(wake)
        }
        let limit = Duration.seconds(idleTimeout)
        var backoff = AcceptBackoff()
        while true {
            // Out of descriptors, a waiting connection cannot be taken: the listener stays readable,
            // and polling it would spin. It is left out of the poll until the pause is over.
            let listening = backoff.isOpen(at: .now)
            var descriptors = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: listener, events: listening ? Int16(POLLIN) : 0, revents: 0)]
            descriptors += pending.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            var deadlines = pending.map { $0.accepted + limit }
            if let resume = backoff.resumeAt, !listening { deadlines.append(resume) }
            var timeout: Int32 = -1
            if let soonest = deadlines.min() {
                let left = soonest - .now
                timeout = left <= .zero ? 0 : Int32(clamping: left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 && errno != EINTR { logger.error("control socket: poll: \(String(cString: strerror(errno)))"); return }
            if descriptors[0].revents != 0 { return }  // stop()

            // Requests first: what arrived is read before anyone is evicted to make room.
            var finished: [Int] = []
            for index in pending.indices where descriptors[index + 2].revents != 0 {
                if read(&pending[index]) { finished.append(index) }
            }
            let now = ContinuousClock.now
            for index in pending.indices where !finished.contains(index) && now - pending[index].accepted >= limit {
                let writer = ReplyWriter(descriptor: pending[index].descriptor)
                writer.send("error", "no request within \(idleTimeout) s")
                writer.finish(code: .usage)
                finished.append(index)
            }
            for index in finished.sorted(by: >) { pending.remove(at: index) }

            if listening, descriptors[1].revents != 0 { acceptAll(listener, into: &pending, backoff: &backoff) }
        }
    }

    /// A pause in accepting after EMFILE/ENFILE (out of descriptors) or ENOBUFS/ENOMEM: 50 ms,
    /// doubling to 2 s while it lasts, reset by the next connection taken.
    struct AcceptBackoff {
        private(set) var resumeAt: ContinuousClock.Instant?
        private var pause = Duration.milliseconds(50)
        private(set) var pauses = 0

        func isOpen(at now: ContinuousClock.Instant) -> Bool { resumeAt.map { now >= $0 } ?? true }

        mutating func failed(at now: ContinuousClock.Instant) {
            resumeAt = now + pause
            pause = min(pause * 2, .seconds(2))
            pauses += 1
        }

        mutating func succeeded() {
            resumeAt = nil
            pause = .milliseconds(50)
        }
    }

    /// Accepts every connection waiting; beyond `maximumPending`, the oldest waiting one goes.
    private func acceptAll(_ listener: Int32, into pending: inout [Pending], backoff: inout AcceptBackoff) {
        while true {
            let client = quoted_accept_cloexec(listener)
            if client < 0 {
                let code = errno
                if code == EINTR || code == ECONNABORTED { continue }
                if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code) {
                    // Said once per run of failures, not once per poll.
                    if backoff.resumeAt == nil {
                        logger.warning("control socket: cannot accept (\(Errno.describe(code))); pausing new connections")
                    }
                    backoff.failed(at: .now)
                }
                return  // EAGAIN: nothing more waiting
            }
            backoff.succeeded()
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            if pending.count >= Self.maximumPending {
                let evicted = pending.removeFirst()
                logger.debug("control socket: dropped a client that sent no request in time to make room")
                let writer = ReplyWriter(descriptor: evicted.descriptor)
                writer.send("error", "busy: dropped to make room (send the request at once)")
                writer.finish(code: .temporaryFailure)
            }
            pending.append(Pending(descriptor: client, accepted: .now))
        }
    }

    /// Reads what a connection sent; true when it is done with here (answered, handed
    /// over to the handler, or dropped).
    private func read(_ connection: inout Pending) -> Bool {
        var chunk = [UInt8](repeating: 0, count: ControlRequest.maximumLength + 1)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return false }
                close(connection.descriptor)
                return true
            }
            if count == 0 {
                // Gone before finishing a line.
                ReplyWriter(descriptor: connection.descriptor).finish(code: .usage)
                return true
            }
            connection.line.append(contentsOf: chunk[0..<count])
            if let newline = connection.line.firstIndex(of: 10) {
                respond(to: Array(connection.line[..<newline]), on: connection.descriptor)
                return true
            }
            if connection.line.count > ControlRequest.maximumLength {
                let writer = ReplyWriter(descriptor: connection.descriptor)
                writer.send("error", ControlRequest.ParseError.tooLong.description)
                writer.finish(code: .usage)
                return true
            }
        }
    }

    private func respond(to line: [UInt8], on client: Int32) {
        // Refusals are written here; an accepted request gets a writer that counts it.
        let writer = ReplyWriter(descriptor: client)
        // The peer is checked once its request is read, so a refusal never races its request.
        var peerPID: pid_t = 0, peerUID: uid_t = 0, peerGID: gid_t = 0
        guard quoted_peer_credentials(client, &peerPID, &peerUID, &peerGID) == 0 else {
            writer.send("error", "cannot read peer credentials")
            writer.finish(code: .noPermission)
            return
        }
        let allowed = policy.allows(peerUID: peerUID, peerGID: peerGID) { PeerPolicy.groups(ofUser: peerUID) }
        guard allowed else {
            logger.warning("control socket: refused uid \(peerUID) (pid \(peerPID)): not root, our user or in our group")
            writer.send("error", "permission denied: not in group \(policy.groupName)")
            writer.finish(code: .noPermission)
            return
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            writer.send("error", "request is not UTF-8")
            writer.finish(code: .usage)
            return
        }
        let request: ControlRequest
        do {
            request = try ControlRequest.parse(text)
        } catch {
            writer.send("error", error.description)
            writer.finish(code: .usage)
            return
        }
        guard answering.increment(limit: Self.maximumAnswering) else {
            writer.send("error", "busy: \(Self.maximumAnswering) requests in progress, try again")
            writer.finish(code: .temporaryFailure)
            return
        }
        logger.debug("control socket: \(request.line) from uid \(peerUID)")
        let answering = self.answering
        let counted = ReplyWriter(descriptor: client) { answering.decrement() }
        if case .terminated = incoming.yield((request, counted)) {
            counted.send("error", "the daemon is stopping")
            counted.finish(code: .temporaryFailure)
        }
    }
}

/// A count that lives inside its lock.
final class ManagedCounter: Sendable {
    private let value = Mutex(0)

    func increment(limit: Int) -> Bool {
        value.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func decrement() { value.withLock { $0 -= 1 } }
}
