import CSystem
import Foundation
import QuoteConfig

/// Writes reply lines to one control client. Writes after the client left are dropped.
public final class ReplyWriter: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    private var closed = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public func send(_ reply: ControlReply) {
        lock.withLock {
            guard !closed else { return }
            let bytes = Array((reply.line + "\n").utf8)
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { closed = true; return }  // the client went away: stop writing, nothing else
                sent += count
            }
        }
    }

    public func send(_ kind: String, _ text: String = "") { send(ControlReply(kind: kind, text: text)) }

    public func finish(code: Int32) {
        send("end", String(code))
        lock.withLock {
            closed = true
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
        }
    }
}

/// The control socket: a Unix stream socket (mode 0660) speaking ControlRequest.
/// Each client gets its own thread for reading its one request line; a client
/// that says nothing is dropped after `idleTimeout`; an oversized or malformed
/// request gets an error reply; peers are checked with SO_PEERCRED.
public final class ControlServer: @unchecked Sendable {
    public typealias Handler = @Sendable (ControlRequest, ReplyWriter) async -> Void

    public let path: String
    private let policy: PeerPolicy
    private let logger: Logger
    private let handler: Handler
    private let idleTimeout: Int
    private var listener: Int32 = -1
    private let lock = NSLock()
    private var activeClients = 0
    static let maximumClients = 64

    public enum StartError: Error, CustomStringConvertible {
        case alreadyRunning(String)
        case system(String)

        public var description: String {
            switch self {
            case .alreadyRunning(let path): return "another quoted answers on \(path)"
            case .system(let message): return message
            }
        }
    }

    public init(path: String, policy: PeerPolicy = PeerPolicy(), logger: Logger, idleTimeout: Int = 5, handler: @escaping Handler) {
        self.path = path
        self.policy = policy
        self.logger = logger
        self.idleTimeout = idleTimeout
        self.handler = handler
    }

    /// Binds and starts accepting on a thread of its own.
    public func start() throws(StartError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o750])
            } catch {
                throw .system("cannot create \(folder): \(error.localizedDescription)")
            }
        }
        if FileManager.default.fileExists(atPath: path) {
            // A live daemon answers; a stale socket from a crash is removed.
            if (try? ControlClient(path: path)) != nil { throw .alreadyRunning(path) }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { close(fd); throw .system("socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw .system("cannot listen on \(path): \(message)")
        }
        chmod(path, 0o660)
        guard listen(fd, 64) == 0 else { close(fd); throw .system("listen: \(String(cString: strerror(errno)))") }
        listener = fd
        let thread = Thread { [self] in acceptLoop(fd) }
        thread.name = "control-accept"
        thread.start()
    }

    public func stop() {
        let fd = lock.withLock { () -> Int32 in
            defer { listener = -1 }
            return listener
        }
        guard fd >= 0 else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        unlink(path)
    }

    private func acceptLoop(_ fd: Int32) {
        while true {
            let client = quoted_accept_cloexec(fd)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // the listener was closed
            }
            let admitted = lock.withLock { () -> Bool in
                guard activeClients < Self.maximumClients else { return false }
                activeClients += 1
                return true
            }
            guard admitted else {
                ReplyWriter(descriptor: client).send("error", "busy: too many clients")
                close(client)
                continue
            }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        let writer = ReplyWriter(descriptor: client)
        defer { lock.withLock { activeClients -= 1 } }
        var timeout = timeval(tv_sec: idleTimeout, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                // Silent (timed out) or gone before finishing a line.
                if count < 0 { writer.send("error", "no request within \(idleTimeout) s") }
                writer.finish(code: 64)
                return
            }
            line.append(contentsOf: chunk[0..<count])
            if let newline = line.firstIndex(of: 10) {
                line = Array(line[..<newline])
                break
            }
            if line.count > ControlRequest.maximumLength {
                writer.send("error", ControlRequest.ParseError.tooLong.description)
                writer.finish(code: 64)
                return
            }
        }
        // The peer is checked once its request is read, so a refusal never races its request.
        var peerPID: pid_t = 0, peerUID: uid_t = 0, peerGID: gid_t = 0
        guard quoted_peer_credentials(client, &peerPID, &peerUID, &peerGID) == 0 else {
            writer.send("error", "cannot read peer credentials")
            writer.finish(code: 77)
            return
        }
        let allowed = policy.allows(peerUID: peerUID, peerGID: peerGID) { PeerPolicy.groups(ofUser: peerUID) }
        guard allowed else {
            logger.warning("control socket: refused uid \(peerUID) (pid \(peerPID)): not root, our user or in our group")
            writer.send("error", "permission denied: not a member of the daemon's group")
            writer.finish(code: 77)
            return
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            writer.send("error", "request is not UTF-8")
            writer.finish(code: 64)
            return
        }
        let request: ControlRequest
        do {
            request = try ControlRequest.parse(text)
        } catch {
            writer.send("error", error.description)
            writer.finish(code: 64)
            return
        }
        logger.debug("control socket: \(request.line) from uid \(peerUID)")
        let handler = self.handler
        let done = DispatchSemaphore(value: 0)
        Task {
            await handler(request, writer)
            done.signal()
        }
        done.wait()
    }
}
