import QuoteSystem
import QuoteSystemTasks
import Synchronization

/// What wakes the scheduler: a command or a finished sync posts; the loop waits in
/// `wait(until:)` — no polling — for a post or its deadline, whichever comes first.
/// Posts made while nobody waits are remembered (coalesced: the loop looks at everything
/// each time it wakes). The state lives inside its lock.
final class Wakeup: Sendable {
    private struct State {
        var pending = false
        var cancelled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func post() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at the next post, at `deadline` on `clock` (the system's keeps counting through
    /// a suspend), or when the task is cancelled.
    func wait(until deadline: Duration?, on clock: any SleepingClock) async {
        await withTaskGroup(of: Void.self) { race in
            if let deadline { race.addTask { try? await clock.sleep(until: deadline) } }
            race.addTask { await self.posted() }
            await race.next()
            race.cancelAll()
        }
    }

    private func posted() async {
        state.withLock { $0.cancelled = false }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.pending || state.cancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
