import QuoteScheduling
import Synchronization

/// The clients waiting for a sync's report, by ticket. The actor answers a waiter (the report,
/// or "cancelled" as the daemon stops); a waiter whose task is cancelled (its client left) is
/// answered, with nil, by that task's cancellation handler, which runs outside the actor: so the
/// waiters live inside their own lock, each is answered once, and no task is started to do it.
final class ReportWaiters: Sendable {
    typealias Waiter = CheckedContinuation<SourceReport?, Never>

    private struct State {
        var waiting: [Int: Waiter] = [:]
        /// Tickets whose task was cancelled before its waiter came.
        var left: Set<Int> = []
        /// Reports that came before their waiter did (the sync ended between the actor's look at
        /// the ticket and the waiter's registering, which may run off the actor).
        var early: [Int: SourceReport] = [:]
        /// The daemon stops: it answers every waiter itself (a sync that ends within the grace
        /// with its own report), a cancelled one too.
        var stopping = false
    }

    private let state = Mutex(State())

    /// Keeps `waiter` until `ticket` is answered; answers it at once when its report came
    /// already, or (nil) when its task was cancelled already.
    func register(_ ticket: Int, _ waiter: Waiter) {
        let now = state.withLock { state -> SourceReport?? in
            if let report = state.early.removeValue(forKey: ticket) { return .some(report) }
            if state.left.remove(ticket) != nil { return .some(nil) }
            state.waiting[ticket] = waiter
            return .none
        }
        if let now { waiter.resume(returning: now) }
    }

    /// `ticket`'s task was cancelled: its waiter (now, or when it comes) is answered nil —
    /// unless the daemon stops, which answers it.
    func cancel(_ ticket: Int) {
        let waiter = state.withLock { state -> Waiter? in
            guard !state.stopping else { return nil }
            guard let waiter = state.waiting.removeValue(forKey: ticket) else {
                state.left.insert(ticket)
                return nil
            }
            return waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Forgets a cancellation that came after `ticket`'s answer, and an answer nobody took.
    func forget(_ ticket: Int) {
        state.withLock { state in
            state.left.remove(ticket)
            state.early[ticket] = nil
        }
    }

    /// Answers `ticket`'s waiter with `report`, or keeps it for the waiter about to come;
    /// whether one was waiting.
    func answer(_ ticket: Int, with report: SourceReport) -> Bool {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiting.removeValue(forKey: ticket) else {
                state.early[ticket] = report
                return nil
            }
            return waiter
        }
        waiter?.resume(returning: report)
        return waiter != nil
    }

    /// From now on a cancelled waiter keeps waiting for the stopping daemon's answer.
    func daemonStops() {
        state.withLock { $0.stopping = true }
    }

    /// Whether `ticket`'s client waits now.
    func isWaiting(_ ticket: Int) -> Bool {
        state.withLock { $0.waiting[ticket] != nil }
    }
}
