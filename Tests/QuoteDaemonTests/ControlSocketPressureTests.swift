import Foundation
import QuoteBase
import QuoteConfig
import QuoteControl
@testable import QuoteDaemon
import QuoteSystem
import Synchronization
import Testing
import TestSupport

/// The control socket under slow and greedy clients: trickling clients never lock out a
/// well-behaved one, a flood of clients is answered in full, a wrong socket path never
/// destroys what is there.
@Suite(.offThePool, .serialized, .timeLimit(.minutes(5))) struct ControlSocketPressureTests {
    let temporary = TemporaryFolder("quoted-pressure")
    var folder: String { temporary.path }
    let server: ServingControlServer
    /// The server's deadlines run on this clock: the tests move it instead of waiting.
    let clock = ManualClock()

    init() throws {
        server = ControlServer.answering(path: temporary.path + "/control.sock", logger: Logger(level: .error), clock: clock) { _, writer in
            writer.send("daemon", #"{"pid": 1}"#)
            writer.finish(code: 0)
        }
        try server.start()
    }

    /// A raw client: connected, not yet sent anything.
    func connectRaw() -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = UnixSocketAddress(server.path)!
        return address.connect(fd) == 0 ? fd : -1
    }

    /// `quotectl status`'s own client: connect, send, read to `end`. The patience for "busy"
    /// answers is a minute, not quotectl's 3 s: under a flood on a loaded two-core CI machine
    /// the point is that every client is answered in the end, not how soon (CI saw 256 of 500
    /// clients give up after 3 s while other suites held both cores).
    static func status(path: String) -> (answered: Bool, seconds: Double) {
        let started = Date()
        guard let client = try? ControlClient.connect(sending: .status, candidates: [path], silence: 30, patience: 60) else {
            return (false, Date().timeIntervalSince(started))
        }
        var sawDaemon = false
        while let reply = try? client.nextReply() {
            if reply.kind == "daemon" { sawDaemon = true }
            if reply.kind == "end" { return (sawDaemon && reply.text == "0", Date().timeIntervalSince(started)) }
        }
        return (false, Date().timeIntervalSince(started))
    }

    func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in Thread.detachNewThread { continuation.resume(returning: body()) } }
    }

    /// 64 clients sending one byte every 4 s could hold every slot: a status request is
    /// answered while they trickle (the oldest waiting client makes room).
    @Test func tricklingClientsDoNotLockOutStatus() async throws {
        let tricklers = (0..<64).map { _ in connectRaw() }
        #expect(tricklers.allSatisfy { $0 >= 0 })
        defer { for fd in tricklers { close(fd) } }
        let path = server.path
        for _ in 0..<3 {
            for fd in tricklers { _ = send(fd, "s", 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            clock.advance(by: .seconds(4))
            let (answered, _) = await onThread { Self.status(path: path) }
            #expect(answered)
        }
    }

    /// 500 clients at once, each sending its request at once: every one is answered.
    @Test func aFloodOfWellBehavedClientsIsAnsweredInFull() async throws {
        let path = server.path
        let answered = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<500 { group.addTask { await self.onThread { Self.status(path: path).answered } } }
            var count = 0
            for await ok in group where ok { count += 1 }
            return count
        }
        #expect(answered == 500)
    }

    /// The whole request has one deadline: a client that keeps trickling is dropped on time —
    /// its 5 s from the connect, on the server's clock, however often it sends a byte. A status
    /// exchange after each byte and after each second is the barrier: the server answers it only
    /// after a pass of its loop that read what the trickler had sent and looked at the clock.
    @Test func aTricklingClientIsDroppedAtItsDeadline() async throws {
        let fd = connectRaw()
        defer { close(fd) }
        func replied() -> Bool {
            var probe: UInt8 = 0
            return recv(fd, &probe, 1, Int32(MSG_DONTWAIT | MSG_PEEK)) > 0
        }
        let path = server.path
        func barrier() async { #expect(await onThread { Self.status(path: path).answered }) }
        var second = 0
        while !replied() && second < 12 {
            #expect(send(fd, "s", 1, Int32(MSG_NOSIGNAL)) == 1)
            await barrier()  // the server has read the byte
            clock.advance(by: .seconds(1))
            second += 1
            await barrier()  // and looked at the moved clock
        }
        #expect(second >= 5 && second <= 6, "dropped after \(second) s of trickling")
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = recv(fd, &buffer, buffer.count, 0)
        let reply = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
        #expect(reply.hasPrefix("error no request within 5 s"), "\(reply)")
    }

    @Test func onlyASocketIsEverReplaced() throws {
        let precious = folder + "/quotes.db"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: precious))
        let wrong = ControlServer.answering(path: precious, logger: Logger(level: .error)) { _, writer in writer.finish(code: 0) }
        let error = #expect(throws: ControlServer.StartError.self) { try wrong.start() }
        #expect(error?.exitCode == 78)
        #expect(FileManager.default.contents(atPath: precious) == Data("precious".utf8))
    }
}

/// A flag set from one thread and read from another.
final class ManagedAtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}
