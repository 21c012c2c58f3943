import Foundation
import QuoteBase
import QuoteConfig
import QuoteControl
import QuoteSystem
import Synchronization
@testable import QuoteDaemon
import Testing
import TestSupport

/// The control socket with a stand-in handler: good, malformed, oversized, silent
/// and unauthorized clients, and many at once.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ControlServerTests {
    let temporary = TemporaryFolder("quoted-control")
    var folder: String { temporary.path }
    let server: ServingControlServer
    var path: String { server.path }
    /// The server's deadlines run on this clock: a silent client is dropped when the test moves it.
    let clock = ManualClock()

    init() throws {
        server = ControlServer.answering(path: temporary.path + "/run/control.sock", logger: Logger(level: .error), idleTimeout: 3,
                                         clock: clock) { request, writer in
            switch request {
            case .status:
                writer.send("daemon", #"{"pid": 1}"#)
                writer.finish(code: 0)
            case .sync(let sources, _):
                for source in sources { writer.send("ok", "\(source): fine") }
                writer.finish(code: 0)
            case .reload:
                writer.finish(code: 78)
            }
        }
        try server.start()
    }

    /// Sends raw bytes and returns every reply line until the server closes. Blocking
    /// socket calls run on a thread of their own, never on the test's executor.
    func exchange(_ bytes: [UInt8]) async throws -> [String] {
        let path = self.path
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Self.blockingExchange(path: path, bytes)) }
        }
    }

    static func blockingExchange(path: String, _ bytes: [UInt8]) -> [String] {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let name = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in name.enumerated() { raw[i] = b } }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return ["connect failed"] }
        if !bytes.isEmpty { _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        var received = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4_096)
        // Generous: the handler runs on the shared async threads, which other tests in the
        // parallel suite may hold for seconds (blocking waits on child processes); a late
        // answer is not the failure these tests look for, a missing or wrong one is.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { break }
            received += chunk[0..<count]
        }
        return String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func theSocketIsGroupReadableOnly() throws {
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o660)
    }

    @Test func goodRequestsAreAnswered() async throws {
        #expect(try await exchange(Array("status\n".utf8)) == [#"daemon {"pid": 1}"#, "end 0"])
        #expect(try await exchange(Array("sync upbit custom.x\n".utf8)) == ["ok upbit: fine", "ok custom.x: fine", "end 0"])
        let path = self.path
        let replies = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var replies: [ControlReply] = []
                if let client = try? ControlClient(path: path) {
                    try? client.send(.sync(sources: ["happiness"], wait: true))
                    while let reply = try? client.nextReply() { replies.append(reply) }
                }
                continuation.resume(returning: replies)
            }
        }
        #expect(replies == [ControlReply(kind: "ok", text: "happiness: fine"), ControlReply(kind: "end", text: "0")])
    }

    @Test(arguments: ["frobnicate\n", "\n", "sync bad;name\n", "status now\n", "sync \u{1B}[31m\n"])
    func malformedRequestsGetAnErrorReply(request: String) async throws {
        let lines = try await exchange(Array(request.utf8))
        #expect(lines.first?.hasPrefix("error ") == true, "\(lines)")
        #expect(lines.last == "end 64")
    }

    @Test func anOversizedRequestIsRefusedAndTheServerLivesOn() async throws {
        let lines = try await exchange(Array(String(repeating: "s", count: 100_000).utf8))
        #expect(lines.first == "error request longer than 1024 bytes")
        #expect(try await exchange(Array("status\n".utf8)).last == "end 0")
    }

    /// Dropped when its 3 s are up on the server's clock — and not before. A status exchange
    /// after each step is the barrier: the server answers it only after a pass of its loop that
    /// accepted the silent client (connected first) and looked at the moved clock, so the silent
    /// client's socket then holds its reply, or nothing, for certain.
    @Test func aSilentClientIsDropped() async throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = try #require(UnixSocketAddress(path))
        try #require(address.connect(fd) == 0)
        func dropped() -> Bool {
            var probe: UInt8 = 0
            return recv(fd, &probe, 1, Int32(MSG_DONTWAIT | MSG_PEEK)) > 0
        }
        #expect(try await exchange(Array("status\n".utf8)).last == "end 0")  // accepted
        clock.advance(by: .milliseconds(2_999))
        #expect(try await exchange(Array("status\n".utf8)).last == "end 0")
        #expect(!dropped(), "dropped before its deadline")
        clock.advance(by: .milliseconds(1))
        #expect(try await exchange(Array("status\n".utf8)).last == "end 0")
        #expect(dropped(), "not dropped at its deadline")
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = recv(fd, &buffer, buffer.count, 0)
        let reply = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
        #expect(reply.hasPrefix("error no request within 3 s"), "\(reply)")
    }

    @Test func invalidUTF8IsRefused() async throws {
        #expect(try await exchange([0xFF, 0xFE, 0x0A]).first == "error request is not UTF-8")
    }

    @Test func manyClientsAtOnce() async throws {
        let answers = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<40 {
                group.addTask { (try? await self.exchange(Array("status\n".utf8)).last == "end 0") ?? false }
            }
            var all: [Bool] = []
            for await answer in group { all.append(answer) }
            return all
        }
        #expect(answers.count == 40)
        #expect(answers.allSatisfy { $0 })
    }

    @Test func aSecondDaemonOnTheSameSocketIsRefusedAndAStaleSocketIsReplaced() throws {
        let second = ControlServer.answering(path: path, logger: Logger(level: .error)) { _, writer in writer.finish(code: 0) }
        #expect(throws: ControlServer.StartError.self) { try second.start() }
        server.stop()
        // A socket file left behind by a crash: nothing listens, so the next start replaces it.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in Array(path.utf8).enumerated() { raw[i] = b } }
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(stale)
        let third = ControlServer.answering(path: path, logger: Logger(level: .error)) { _, writer in writer.finish(code: 0) }
        try third.start()
        third.stop()
    }

    @Test func peersOutsideTheGroupAreRefused() throws {
        let policy = PeerPolicy(uid: 990, gid: 990, groupName: "quoted")
        func peer(_ uid: uid_t, _ gid: gid_t, _ groups: [gid_t]?) -> PeerCredentials {
            PeerCredentials(pid: 4_321, uid: uid, gid: gid, groups: groups)
        }
        #expect(policy.allows(peer(0, 0, [])))
        #expect(policy.allows(peer(990, 100, [])))
        #expect(policy.allows(peer(1000, 990, [])))
        // In the group through a supplementary group, as the kernel recorded the peer's.
        #expect(policy.allows(peer(1000, 1000, [27, 990])))
        #expect(!policy.allows(peer(1000, 1000, [27, 100])))
        // A kernel that cannot tell the groups: the uid and primary group alone decide.
        #expect(!policy.allows(peer(1000, 1000, nil)))
        #expect(policy.allows(peer(1000, 990, nil)))
    }

    /// Root and the daemon's own user have slots of their own; a group member has none.
    @Test func administratorsAreRootAndTheDaemonsUser() {
        let policy = PeerPolicy(uid: 990, gid: 990, groupName: "quoted")
        #expect(policy.isAdministrator(PeerCredentials(pid: 1, uid: 0, gid: 0, groups: [])))
        #expect(policy.isAdministrator(PeerCredentials(pid: 1, uid: 990, gid: 100, groups: nil)))
        #expect(!policy.isAdministrator(PeerCredentials(pid: 1, uid: 1000, gid: 990, groups: [990])))
    }

    /// The group's name is looked up when the policy is made, once; a given name is kept as it is.
    @Test func theGroupsNameIsSettledAtStart() {
        #expect(PeerPolicy(uid: 990, gid: 990, groupName: "quoted").groupName == "quoted")
        #expect(PeerPolicy(uid: 0, gid: 0).groupName == "root")
        #expect(PeerPolicy(uid: 0, gid: 4_242_000).groupName == "4242000")
    }

    @Test func onlyRootAndTheDaemonsUserMayReload() {
        let policy = PeerPolicy(uid: 990, gid: 990)
        func peer(_ uid: uid_t, _ gid: gid_t) -> PeerCredentials { PeerCredentials(pid: 1, uid: uid, gid: gid, groups: []) }
        #expect(policy.isAdministrator(peer(0, 0)))
        #expect(policy.isAdministrator(peer(990, 990)))
        #expect(!policy.isAdministrator(peer(1000, 990)))
        #expect(policy.allows(peer(1000, 990)), "a group member may still ask for status and syncs")
    }

    /// A real peer in the daemon's group (its uid another): status is answered, reload refused.
    @Test func aLiveGroupMemberMayNotReload() async throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            Issue.record("needs root, setpriv and python3 to connect as another user")
            return
        }
        let member = ControlServer.answering(path: folder + "/member/control.sock", policy: PeerPolicy(uid: 0, gid: 65534),
                                             logger: Logger(level: .error)) { request, writer in
            writer.send("ok", request.line)
            writer.finish(code: 0)
        }
        try member.start()
        defer { member.stop() }
        chmod(folder, 0o755)
        chmod(folder + "/member", 0o755)
        chmod(member.path, 0o666)
        func ask(_ request: String) throws -> String { try askAsOtherUser(request, socket: member.path) }
        let status = try ask("status")
        #expect(status == "ok status\nend 0\n", "\(status)")
        let reload = try ask("reload")
        #expect(reload.hasPrefix("error permission denied: only root or the daemon's own user may reload"), "\(reload)")
        #expect(reload.hasSuffix("end 77\n"), "\(reload)")
    }

    /// A real peer with another uid: the socket is opened up so only SO_PEERCRED stands in the way.
    @Test func aLiveUnauthorizedPeerGetsARefusal() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            Issue.record("needs root, setpriv and python3 to connect as another user")
            return
        }
        chmod(folder, 0o755)
        chmod(folder + "/run", 0o755)
        chmod(path, 0o666)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                             "import socket,sys\ns=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])\n"
                             + "try: s.sendall(b'status\\n')\nexcept OSError: pass\n"
                             + "data=b''\nwhile True:\n c=s.recv(4096)\n if not c: break\n data+=c\nprint(data.decode(), end='')", path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.hasPrefix("error permission denied"), "\(text) \(problems)")
        #expect(text.contains("end 77"))
    }
}
