import QuoteControl
@testable import QuoteDaemon
import QuoteSystem

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
        Task { await server.serve(handler) }
    }

    func stop() { server.stop() }
}
