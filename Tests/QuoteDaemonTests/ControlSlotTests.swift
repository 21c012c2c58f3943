import Foundation
import QuoteBase
import QuoteControl
@testable import QuoteDaemon
import QuoteSystem
import Synchronization
import Testing
import TestSupport

/// Slots on the control socket: a client that waits for a sync and hangs up frees its slot at
/// once and its waiting stops; group members can never take the slots kept for an administrator.
@Suite(.offThePool, .serialized, .timeLimit(.minutes(5))) struct ControlSlotTests {
    let temporary = TemporaryFolder("quoted-slots")
    let server: ServingControlServer
    /// A group no user database names: a peer is in it only by the groups the kernel reports.
    static let group: gid_t = 4_242
    /// Requests whose wait ended by their task's cancellation (their client hung up).
    let cancelled = ManagedCounter()
    /// Every slot there is, for this process: it runs as the daemon's own user (or root).
    static let capacity = ControlServer.maximumAnswering + ControlServer.reservedForAdministrators

    init() throws {
        let cancelled = self.cancelled
        let policy = PeerPolicy(uid: CurrentProcess.userID, gid: Self.group, groupName: "quoted")
        server = ControlServer.answering(path: temporary.path + "/control.sock", policy: policy, logger: Logger(level: .error)) { request, writer in
            guard case .sync = request else {
                writer.send("daemon", #"{"pid": 1}"#)
                writer.finish(code: 0)
                return
            }
            // Waits as a sync asked for with --wait does, until its client leaves (the task is
            // cancelled): a stream nobody ever yields to ends only on cancellation, with no clock.
            writer.send("started", "x")
            let (never, continuation) = AsyncStream<Never>.makeStream()
            for await _ in never {}
            continuation.finish()  // held until here: a stream whose continuation is gone ends at once
            if Task.isCancelled { _ = cancelled.increment(limit: .max) }
            writer.finish(code: 0)
        }
        try server.start()
    }

    var inProgress: Int { server.server.requestsInProgress }

    /// Connects `count` clients one after the other, each sending `request` and reading its
    /// first reply line; their descriptors stay open (the caller closes them).
    static func clients(_ count: Int, request: String, path: String) -> (descriptors: [Int32], firstLines: [String]) {
        var descriptors: [Int32] = [], lines: [String] = []
        for _ in 0..<count {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            descriptors.append(fd)
            guard var address = UnixSocketAddress(path), address.connect(fd) == 0 else { lines.append("connect failed"); continue }
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            _ = send(fd, request + "\n", request.utf8.count + 1, Int32(MSG_NOSIGNAL))
            var line = [UInt8](), byte: UInt8 = 0
            while recv(fd, &byte, 1, 0) == 1, byte != 10 { line.append(byte) }
            lines.append(String(decoding: line, as: UTF8.self))
        }
        return (descriptors, lines)
    }

    func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in Thread.detachNewThread { continuation.resume(returning: body()) } }
    }

    @Test func clientsThatHangUpWhileWaitingFreeTheirSlotsAtOnce() async throws {
        let path = server.path, capacity = Self.capacity
        let first = await onThread { Self.clients(capacity + 1, request: "sync x", path: path) }
        #expect(first.firstLines.prefix(capacity).allSatisfy { $0 == "started x" })
        #expect(first.firstLines.last == "error busy: \(ControlServer.maximumAnswering) requests in progress, try again")
        #expect(inProgress == capacity)
        for fd in first.descriptors { close(fd) }
        // Each hang-up is seen by the serving thread; the patience bounds a hang, not the event
        // (held slots would stay held for the handler's hour).
        #expect(await Waiting.until(patience: .seconds(60)) { inProgress == 0 }, "\(inProgress) slots still held")
        #expect(await Waiting.until(patience: .seconds(60)) { cancelled.count == capacity })
        let second = await onThread { Self.clients(capacity, request: "sync x", path: path) }
        #expect(second.firstLines.allSatisfy { $0 == "started x" }, "\(Set(second.firstLines))")
        for fd in second.descriptors { close(fd) }
        #expect(await Waiting.until(patience: .seconds(60)) { inProgress == 0 })
    }

    /// A client that only shuts down its writing side (a script's half-close) still reads: its
    /// answer goes on.
    @Test func aHalfClosedClientIsStillAnswered() async throws {
        let path = server.path
        let client = await onThread { Self.clients(1, request: "sync x", path: path) }
        #expect(client.firstLines == ["started x"])
        let fd = client.descriptors[0]
        defer { close(fd) }
        shutdown(fd, Int32(SHUT_WR))
        // A status request afterwards is the barrier: the server answers it after a pass of its
        // loop that polled the half-closed connection.
        let status = await onThread { Self.clients(1, request: "status", path: path) }
        for fd in status.descriptors { close(fd) }
        #expect(status.firstLines == [#"daemon {"pid": 1}"#])
        // Still open from the server's side: no end of file (which a hang-up's close would give).
        var probe: UInt8 = 0
        #expect(recv(fd, &probe, 1, Int32(MSG_DONTWAIT | MSG_PEEK)) == -1 && errno == EAGAIN)
        #expect(cancelled.count == 0)
    }

    /// Runs `request` as uid 65534 with the given supplementary groups; the daemon's reply lines.
    func asOtherUser(groups: [gid_t], _ request: String) throws -> [String] {
        chmod(temporary.path, 0o755)
        chmod(server.path, 0o666)
        return try askAsOtherUser(request, socket: server.path, groups: groups).split(separator: "\n").map(String.init)
    }

    /// A member through a supplementary group (which no user database knows) is served; once
    /// the members' slots are all taken, it hears "busy" while root is still answered.
    @Test func aMemberBySupplementaryGroupIsServedAndAdministratorsKeepTheirSlots() async throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            Issue.record("needs root, setpriv and python3 to connect as another user")
            return
        }
        #expect(try asOtherUser(groups: [Self.group], "status") == [#"daemon {"pid": 1}"#, "end 0"])
        #expect(try asOtherUser(groups: [], "status") == ["error permission denied: not in group quoted", "end 77"])
        let path = server.path, members = ControlServer.maximumAnswering
        let holders = await onThread { Self.clients(members, request: "sync x", path: path) }
        defer { for fd in holders.descriptors { close(fd) } }
        #expect(holders.firstLines.allSatisfy { $0 == "started x" })
        #expect(try asOtherUser(groups: [Self.group], "status")
                == ["error busy: \(ControlServer.maximumAnswering) requests in progress, try again", "end 75"])
        let administrator = await onThread { Self.clients(1, request: "status", path: path) }
        for fd in administrator.descriptors { close(fd) }
        #expect(administrator.firstLines == [#"daemon {"pid": 1}"#])
    }
}
