import Glibc
@testable import QuoteControl
import Testing

/// The control socket's line protocol and its client, without a daemon.
@Suite(.timeLimit(.minutes(5))) struct ControlProtocolTests {
    @Test(arguments: [
        ("sync", ControlRequest.sync(sources: [], wait: true)), ("sync --no-wait upbit", .sync(sources: ["upbit"], wait: false)),
        ("sync custom.stoics happiness", .sync(sources: ["custom.stoics", "happiness"], wait: true)),
        ("status", .status), ("reload", .reload),
    ])
    func requestsSurviveTheirOwnRoundTrip(line: String, request: ControlRequest) throws {
        #expect(try ControlRequest.parse(line) == request)
        #expect(try ControlRequest.parse(request.line) == request)
    }

    @Test(arguments: ["", "   ", "frobnicate", "status now", "sync a;b", "sync \u{1B}[31m", String(repeating: "s", count: 1_025)])
    func malformedRequestsAreRefused(line: String) {
        #expect(throws: ControlRequest.ParseError.self) { try ControlRequest.parse(line) }
    }

    @Test func aReplyLineSplitsIntoKindAndText() {
        #expect(ControlReply(line: "ok upbit: 536 markets") == ControlReply(kind: "ok", text: "upbit: 536 markets"))
        #expect(ControlReply(line: "end").kind == "end")
    }

    /// A daemon that accepts and then says nothing (stopped, wedged) is given up after the
    /// silence allowed, naming its pid — never waited for forever.
    @Test func aSilentDaemonIsGivenUpWithItsPid() throws {
        let path = "/tmp/quoted-control-test-\(getpid())-\(UInt32.random(in: 0 ... .max)).sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener); unlink(path) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in Array(path.utf8).enumerated() { raw[i] = b } }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0 && listen(listener, 4) == 0)
        let client = try ControlClient(path: path, silence: 1)
        #expect(client.peerPID == Int(getpid()), "SO_PEERCRED names the listening process")
        try client.send(.status)
        #expect(throws: ControlClient.Failure.notAnswering(pid: Int(getpid()))) { try client.nextReply() }
    }

    @Test func nothingListeningIsNotRunning() {
        #expect(throws: ControlClient.Failure.notRunning) { try ControlClient(path: "/tmp/quoted-no-such-socket-\(getpid())") }
    }
}
