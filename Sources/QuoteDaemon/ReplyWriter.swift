import Glibc
import QuoteBase
import QuoteConfig
import QuoteControl
import QuoteSystem
import Synchronization

/// Writes reply lines to one control client. Writes after the client left are dropped.
/// The connection and whether it still reads live inside the lock that serialises the writes.
public final class ReplyWriter: Sendable {
    private struct State: ~Copyable {
        /// The connection; nil once finished (closed).
        var connection: FileDescriptor?
        /// False once the client stopped reading (or left): later lines are dropped.
        var writable = true
        /// The client hung up before the reply was finished.
        var clientLeft = false
        /// Who waits to hear whether the client leaves (`untilClientLeaves`).
        var leaveWaiter: CheckedContinuation<Bool, Never>?
    }

    private let state: Mutex<State>
    /// Called once, when the reply is finished (the server counts requests in progress).
    private let onFinish: @Sendable () -> Void

    init(connection: consuming FileDescriptor, onFinish: @escaping @Sendable () -> Void = {}) {
        state = Mutex(State(connection: consume connection))
        self.onFinish = onFinish
    }

    public func send(_ reply: ControlReply) {
        state.withLock { state in
            guard state.writable, let connection = state.connection?.io else { return }
            let bytes = Array((reply.line + "\n").utf8)
            var sent = 0
            while sent < bytes.count {
                // Never blocks: a client that does not read its replies (the socket buffer,
                // about 200 KB, is full) is dropped rather than allowed to stall the daemon.
                let count = bytes[sent...].withUnsafeBytes { try? connection.send($0, flags: Int32(MSG_DONTWAIT)) }
                guard let count, count > 0 else { state.writable = false; return }  // gone or not reading
                sent += count
            }
        }
    }

    public func send(_ kind: String, _ text: String = "") { send(ControlReply(kind: kind, text: text)) }

    public func finish(code: ExitCode) {
        send("end", String(code.rawValue))
        let wasOpen = state.withLock { state -> Bool in
            guard let connection = state.connection.take() else { return false }
            connection.io.shutdownWriting()
            // Unread request bytes would make close() reset the connection and the client
            // would lose our reply: read what is waiting first.
            var sink = [UInt8](repeating: 0, count: 4_096)
            var drained = 0
            while drained < 1 << 20,
                  let count = sink.withUnsafeMutableBytes({ try? connection.io.receive(into: $0, flags: Int32(MSG_DONTWAIT)) }),
                  count > 0 {
                drained += count
            }
            connection.close()
            return true
        }
        guard wasOpen else { return }
        settleLeaveWaiter(left: false)
        onFinish()
    }

    /// The connection's descriptor while it is open, for the serving thread to watch for a hang-up.
    var openDescriptor: Int32? { state.withLock { $0.connection?.rawValue } }

    /// The client hung up before its reply was finished: the connection closes now, which frees
    /// its slot, and whoever waits in `untilClientLeaves` hears it. Nothing once finished.
    func clientHungUp() {
        let wasOpen = state.withLock { state -> Bool in
            guard let connection = state.connection.take() else { return false }
            state.writable = false
            state.clientLeft = true
            connection.close()
            return true
        }
        guard wasOpen else { return }
        settleLeaveWaiter(left: true)
        onFinish()
    }

    /// Waits until the client hangs up before its reply is finished (true), or the reply is
    /// finished or the waiting task is cancelled (false).
    func untilClientLeaves() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let settled = state.withLock { state -> Bool? in
                    if state.connection == nil { return state.clientLeft }
                    if Task.isCancelled { return false }
                    state.leaveWaiter = continuation
                    return nil
                }
                if let settled { continuation.resume(returning: settled) }
            }
        } onCancel: {
            settleLeaveWaiter(left: false)
        }
    }

    private func settleLeaveWaiter(left: Bool) {
        state.withLock { $0.leaveWaiter.take() }?.resume(returning: left)
    }
}
