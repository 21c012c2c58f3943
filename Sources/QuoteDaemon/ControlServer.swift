import Glibc
import QuoteBase
import QuoteConfig
import QuoteControl
import QuoteSystem
import Synchronization

/// The control socket: a Unix stream socket (mode 0660) speaking ControlRequest.
///
/// One thread polls the listener and every connection still sending its request, so a
/// slow client costs a slot, not a thread. Each connection has ONE deadline for its
/// whole request line (`idleTimeout` after it was accepted: a client trickling a byte
/// every few seconds is dropped all the same); at most `maximumPending` connections
/// may be waiting for their request at once, and when a new one arrives beyond that,
/// the oldest waiting one is dropped to make room, so idle clients can never lock out a
/// well-behaved one. Peers are checked once their request is read, by the credentials the
/// kernel keeps for the connection (`PeerPolicy`: no user database is asked on this thread).
/// Requests come out of `serve`, each answered in a child task of the caller's tree.
///
/// At most `maximumAnswering` requests are answered at once (a `sync` holds its slot while it
/// waits for its syncs); root and the daemon's own user have `reservedForAdministrators` more,
/// so group members' requests can never make an administrator's `status` answer "busy". The
/// same thread watches each connection being answered: a client that hangs up frees its slot at
/// once and its request's task is cancelled (what it started goes on; only the waiting stops).
public final class ControlServer: Sendable {
    public typealias Handler = @Sendable (ControlRequest, ReplyWriter) async -> Void

    public let path: String
    private let policy: PeerPolicy
    private let logger: Logger
    private let idleTimeout: Int
    /// The deadlines' time: the system's, or a test's manual clock.
    private let clock: any MonotonicClock
    /// The write end of the pipe that wakes the serving thread, while serving; and whether it
    /// was woken to stop (otherwise: the clock was moved, deadlines are looked at again).
    private let wake = Mutex(WakeState())

    private struct WakeState: ~Copyable {
        var writer: FileDescriptor?
        var stopping = false
    }
    static let maximumPending = 64
    /// Requests being answered at once (a `sync` waits for its syncs): beyond this, "busy".
    static let maximumAnswering = 256
    /// Slots beyond `maximumAnswering` that only root and the daemon's own user may take.
    static let reservedForAdministrators = 2
    private let answering = ManagedCounter()
    /// The requests being answered now (each holds a slot until its reply ends or its client leaves).
    var requestsInProgress: Int { answering.count }
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

    public init(path: String, policy: PeerPolicy = PeerPolicy(), logger: Logger, idleTimeout: Int = 5,
                clock: any MonotonicClock = SystemClock()) {
        self.path = path
        self.policy = policy
        self.logger = logger
        self.idleTimeout = idleTimeout
        self.clock = clock
        (requests, incoming) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Answers each request with `handler`, each in a child task, until the calling task is
    /// cancelled; then stops listening and returns once every answer in progress is done.
    public func serve(_ handler: @escaping Handler) async {
        await withDiscardingTaskGroup { answers in
            for await (request, writer) in requests {
                answers.addTask { await Self.answer(request, on: writer, with: handler) }
            }
        }
        stop()
    }

    /// Runs `handler`, cancelled when its client hangs up before the reply is finished: what the
    /// request started goes on (a sync asked for still runs), only its waiting stops.
    private static func answer(_ request: ControlRequest, on writer: ReplyWriter, with handler: @escaping Handler) async {
        await withTaskGroup(of: Bool.self) { answer in
            answer.addTask { await handler(request, writer); return true }
            answer.addTask { await writer.untilClientLeaves() }
            // The handler's end, or the client's: either ends the other.
            for await over in answer where over { answer.cancelAll() }
        }
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
            try? FileSystem.unlink(path)
        }
        let listener: FileDescriptor
        do { listener = try FileDescriptor.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue)) } catch {
            throw .system("socket: \(error)")
        }
        guard var address = UnixSocketAddress(path) else {
            throw .notASocket("socket path too long (\(path.utf8.count) bytes, at most \(ConfigLimits.socketPathBytes)): \(path)")
        }
        guard address.bind(listener.rawValue) == 0 else { throw .system("cannot listen on \(path): \(Errno.current)") }
        try? FileSystem.setPermissions(path, 0o660)
        do { try listener.io.listen() } catch { throw .system("listen: \(error)") }
        let pipe: Pipe
        do { pipe = try FileDescriptor.pipe() } catch { throw .system("pipe: \(error)") }
        let serving = Serving(listener: listener, wakeReader: pipe.read)
        // Never blocks a poke: a full pipe already says "look again".
        pipe.write.io.setNonBlocking(true)
        var writer: FileDescriptor? = consume pipe.write
        wake.withLock { $0 = WakeState(writer: writer.take()) }
        clock.whenMoved { [weak self] in self?.poke(stopping: false) }
        guard BlockingWork.start({ [self] in serveLoop(serving) }) else {
            stop()
            throw .system("cannot start the control socket's thread")
        }
    }

    public func stop() {
        incoming.finish()
        // The loop closes the listener and every pending connection when it sees this.
        if poke(stopping: true) { try? FileSystem.unlink(path) }
    }

    /// Wakes the serving thread (to stop, or to look at its deadlines again); false when it is
    /// not serving. Stopping closes the pipe: nothing wakes it after that.
    @discardableResult
    private func poke(stopping: Bool) -> Bool {
        wake.withLock { wake in
            guard let writer = wake.writer?.io else { return false }
            wake.stopping = wake.stopping || stopping
            _ = try? writer.writeAll([1])
            if stopping { wake.writer.take()?.close() }
            return true
        }
    }

    /// What the serving thread owns: the listener and the read end of the wake pipe.
    private final class Serving: Sendable {
        let listener: FileDescriptor
        let wakeReader: FileDescriptor

        init(listener: consuming FileDescriptor, wakeReader: consuming FileDescriptor) {
            self.listener = listener
            self.wakeReader = wakeReader
        }
    }

    /// A connection still sending its request line.
    private final class Pending {
        var connection: FileDescriptor?
        let accepted: Duration
        var line: [UInt8] = []

        init(_ connection: consuming FileDescriptor, accepted: Duration) {
            self.connection = consume connection
            self.accepted = accepted
        }

        var descriptor: Int32 { connection?.rawValue ?? -1 }

        /// Hands the connection to a writer that answers and closes it.
        func writer(onFinish: @escaping @Sendable () -> Void = {}) -> ReplyWriter? {
            guard let connection = connection.take() else { return nil }
            return ReplyWriter(connection: connection, onFinish: onFinish)
        }

        /// Answers with one error line and the exit code, and closes.
        func refuse(_ message: String?, code: ExitCode) {
            guard let writer = writer() else { return }
            if let message { writer.send("error", message) }
            writer.finish(code: code)
        }
    }

    private func serveLoop(_ serving: Serving) {
        // Connections still sending are closed with `pending` when the loop ends (their
        // descriptors' owners go), the listener and wake pipe with `serving`.
        var pending: [Pending] = []
        // Connections being answered, watched for a client that hangs up before its reply ends.
        var answering: [ReplyWriter] = []
        let limit = Duration.seconds(idleTimeout)
        var backoff = AcceptBackoff()
        while true {
            // Out of descriptors, a waiting connection cannot be taken: the listener stays readable,
            // and polling it would spin. It is left out of the poll until the pause is over.
            let listening = backoff.isOpen(at: clock.now)
            var descriptors = [pollfd(fd: serving.wakeReader.rawValue, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: serving.listener.rawValue, events: listening ? Int16(POLLIN) : 0, revents: 0)]
            descriptors += pending.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            let watched = Self.stillOpen(&answering)
            descriptors += watched.map(\.hangUp)
            var deadlines = pending.map { $0.accepted + limit }
            if let resume = backoff.resumeAt, !listening { deadlines.append(resume) }
            let ready: Bool
            do {
                ready = try Poll.once(&descriptors, milliseconds: clock.pollTimeout(until: deadlines.min()))
            } catch {
                logger.error("control socket: poll: \(error)")
                return
            }
            if ready, descriptors[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                _ = try? serving.wakeReader.io.read(into: &drain)
                if wake.withLock({ $0.stopping }) { return }
            }

            let answered = descriptors[(2 + pending.count)...]
            for (entry, polled) in zip(watched, answered) where polled.revents & Int16(POLLHUP | POLLERR) != 0 {
                logger.debug("control socket: a client hung up before its answer ended; its request stops waiting")
                entry.writer.clientHungUp()
            }
            // Requests first: what arrived is read before anyone is evicted to make room.
            var finished: [Int] = []
            for index in pending.indices where descriptors[index + 2].revents != 0 {
                if read(pending[index], answering: &answering) { finished.append(index) }
            }
            let now = clock.now
            for index in pending.indices where !finished.contains(index) && now - pending[index].accepted >= limit {
                pending[index].refuse("no request within \(idleTimeout) s", code: .usage)
                finished.append(index)
            }
            for index in finished.sorted(by: >) { pending.remove(at: index) }

            if listening, descriptors[1].revents != 0 { acceptAll(serving.listener.io, into: &pending, backoff: &backoff) }
        }
    }

    /// The connections still being answered (finished ones are let go), each with what to poll
    /// it for: nothing but a hang-up or an error (both always reported), so bytes a client sends
    /// after its request never wake the loop. A client that shuts down only its writing side (a
    /// script's half-close) still reads, and stays; one gone altogether is POLLHUP.
    private static func stillOpen(_ answering: inout [ReplyWriter]) -> [(writer: ReplyWriter, hangUp: pollfd)] {
        let open = answering.compactMap { writer in
            writer.openDescriptor.map { (writer: writer, hangUp: pollfd(fd: $0, events: 0, revents: 0)) }
        }
        answering = open.map(\.writer)
        return open
    }

    /// A pause in accepting after EMFILE/ENFILE (out of descriptors) or ENOBUFS/ENOMEM: 50 ms,
    /// doubling to 2 s while it lasts, reset by the next connection taken.
    struct AcceptBackoff {
        private(set) var resumeAt: Duration?
        private var pause = Duration.milliseconds(50)
        private(set) var pauses = 0

        func isOpen(at now: Duration) -> Bool { resumeAt.map { now >= $0 } ?? true }

        mutating func failed(at now: Duration) {
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
    private func acceptAll(_ listener: Descriptor, into pending: inout [Pending], backoff: inout AcceptBackoff) {
        while true {
            let client: FileDescriptor
            do {
                client = try listener.accept()
            } catch {
                if error.code == ECONNABORTED { continue }
                if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.code) {
                    // Said once per run of failures, not once per poll.
                    if backoff.resumeAt == nil {
                        logger.warning("control socket: cannot accept (\(error)); pausing new connections")
                    }
                    backoff.failed(at: clock.now)
                }
                return  // EAGAIN: nothing more waiting
            }
            backoff.succeeded()
            client.io.setNonBlocking(true)
            if pending.count >= Self.maximumPending {
                let evicted = pending.removeFirst()
                logger.debug("control socket: dropped a client that sent no request in time to make room")
                evicted.refuse(ControlRefusal.busy.text("dropped to make room (send the request at once)"), code: .temporaryFailure)
            }
            pending.append(Pending(client, accepted: clock.now))
        }
    }

    /// Reads what a connection sent; true when it is done with here (answered, handed
    /// over to the handler — then watched among `answering` — or dropped).
    private func read(_ connection: Pending, answering: inout [ReplyWriter]) -> Bool {
        guard let descriptor = connection.connection?.io else { return true }
        var chunk = [UInt8](repeating: 0, count: ControlRequest.maximumLength + 1)
        while true {
            let count: Int
            do throws(Errno) {
                count = try descriptor.receive(into: &chunk, flags: Int32(MSG_DONTWAIT))
            } catch {
                if error.isWouldBlock { return false }
                connection.connection.take()?.close()
                return true
            }
            if count == 0 {
                // Gone before finishing a line.
                connection.refuse(nil, code: .usage)
                return true
            }
            connection.line.append(contentsOf: chunk[0..<count])
            if let newline = connection.line.firstIndex(of: 10) {
                if let writer = respond(to: Array(connection.line[..<newline]), on: connection) { answering.append(writer) }
                return true
            }
            if connection.line.count > ControlRequest.maximumLength {
                connection.refuse(ControlRequest.ParseError.tooLong.description, code: .usage)
                return true
            }
        }
    }

    /// Checks the peer and its request, and hands it to the handler: the writer answering it, or
    /// nil when it was refused.
    private func respond(to line: [UInt8], on client: Pending) -> ReplyWriter? {
        // The peer is checked once its request is read, so a refusal never races its request.
        guard let peer = client.connection?.io.peer() else {
            client.refuse("cannot read peer credentials", code: .noPermission)
            return nil
        }
        guard policy.allows(peer) else {
            logger.warning("control socket: refused uid \(peer.uid) (pid \(peer.pid)): not root, our user or in our group")
            client.refuse(ControlRefusal.permissionDenied.text("not in group \(policy.groupName)"), code: .noPermission)
            return nil
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            client.refuse("request is not UTF-8", code: .usage)
            return nil
        }
        let request: ControlRequest
        do {
            request = try ControlRequest.parse(text)
        } catch {
            client.refuse(error.description, code: .usage)
            return nil
        }
        guard request != .reload || policy.isAdministrator(peer) else {
            logger.warning("control socket: refused reload from uid \(peer.uid) (pid \(peer.pid)): not root or our user")
            client.refuse(ControlRefusal.permissionDenied.text("only root or the daemon's own user may reload"), code: .noPermission)
            return nil
        }
        let slots = Self.maximumAnswering + (policy.isAdministrator(peer) ? Self.reservedForAdministrators : 0)
        guard answering.increment(limit: slots) else {
            client.refuse(ControlRefusal.busy.text("\(Self.maximumAnswering) requests in progress, try again"), code: .temporaryFailure)
            return nil
        }
        logger.debug("control socket: \(request.line) from uid \(peer.uid)")
        let answering = self.answering
        // A finished reply wakes the serving thread, which stops watching its connection.
        guard let counted = client.writer(onFinish: { [weak self] in
            answering.decrement()
            self?.poke(stopping: false)
        }) else { return nil }
        if case .terminated = incoming.yield((request, counted)) {
            counted.send("error", "the daemon is stopping")
            counted.finish(code: .temporaryFailure)
        }
        return counted
    }
}
