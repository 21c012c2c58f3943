import Synchronization

/// The sources one process syncs write its store one at a time, waiting for their turn suspended,
/// not inside SQLite's busy handler: that handler sleeps on the calling thread, and two sources
/// sleeping there for the busy timeout can hold both cooperative threads of a two-core machine,
/// so the list they wait for cannot run its commit — a short sync takes the whole timeout twice,
/// and the other two fail "busy" with even their failure unrecorded (docs/benchmarks.md,
/// "Processes that meet"). A FIFO: turns are served in order asked.
final class WriteTurns: Sendable {
    private struct State {
        var taken = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Waits (suspended) until no other source of this process writes, then takes the turn.
    func take() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.taken else {
                    state.taken = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Hands the turn to the next source waiting, if any.
    func give() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.taken = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

/// One source's hold on its process's write turn: taken at most once, given back once at the end
/// of its sync, whichever step took it.
final class WriteTurn {
    private let turns: WriteTurns
    private var held = false

    init(of turns: WriteTurns) { self.turns = turns }

    func take() async {
        guard !held else { return }
        await turns.take()
        held = true
    }

    func give() {
        guard held else { return }
        turns.give()
        held = false
    }
}
