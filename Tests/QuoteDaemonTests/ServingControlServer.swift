import Foundation
import QuoteControl
@testable import QuoteDaemon
import QuoteSystem
import TestSupport

extension ControlServer {
    /// A server that will answer with `handler` once started (`start()` serves it from a
    /// task of its own): the tests' stand-in for the daemon's task tree.
    static func answering(path: String, policy: PeerPolicy = PeerPolicy(), logger: Logger, idleTimeout: Int = 5,
                          clock: any MonotonicClock = SystemClock(), _ handler: @escaping ControlServer.Handler) -> ServingControlServer {
        ServingControlServer(server: ControlServer(path: path, policy: policy, logger: logger, idleTimeout: idleTimeout, clock: clock),
                             handler: handler)
    }
}

struct ServingControlServer: Sendable {
    let server: ControlServer
    let handler: ControlServer.Handler
    var path: String { server.path }

    func start() throws {
        try server.start()
        let server = self.server, handler = self.handler
        Task(executorPreference: ownThreads) { await server.serve(handler) }
    }

    func stop() { server.stop() }
}

/// Sends `request` to the control socket at `path` as uid 65534 (setpriv) with `groups` as its
/// supplementary groups (none: cleared), and returns every reply byte as text. Needs root.
/// It waits for the process in a blocking call: suites that use it run `.offThePool` (on the
/// cooperative pool, two such waits held both threads while the server's answers queued there).
func askAsOtherUser(_ request: String, socket path: String, groups: [gid_t] = []) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    let groupOptions = groups.isEmpty ? ["--clear-groups"] : ["--groups=" + groups.map(String.init).joined(separator: ",")]
    process.arguments = ["--reuid=65534", "--regid=65534"] + groupOptions + ["/usr/bin/python3", "-c",
                         "import socket,sys\ns=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])\n"
                         + "s.sendall(sys.argv[2].encode() + b'\\n')\n"
                         + "data=b''\nwhile True:\n c=s.recv(4096)\n if not c: break\n data+=c\nprint(data.decode(), end='')",
                         path, request]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    process.waitUntilExit()
    return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
}
