import QuoteSystem
import QuoteSystemTasks
import Synchronization

/// A monotonic clock that moves only when a test says so: deadlines, idle timeouts and
/// back-offs are crossed by `advance(by:)`, not waited out. Sleepers whose deadline the clock
/// passes are resumed; threads blocked in poll(2) are woken to look again.
public final class ManualClock: SleepingClock {
    private struct Sleeper {
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Duration = .seconds(1_000)
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        var observers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Duration { state.withLock { $0.now } }

    /// How many tasks are asleep on this clock: a test waits for the code under test to get
    /// there before it moves the clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    public func sleep(until deadline: Duration) async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    if deadline <= state.now || Task.isCancelled { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    public func whenMoved(_ moved: @escaping @Sendable () -> Void) {
        state.withLock { $0.observers.append(moved) }
    }

    /// Moves the clock forward, resumes every sleeper whose deadline is now past, and wakes
    /// the observers (poll loops).
    public func advance(by duration: Duration) {
        let (due, observers) = state.withLock { state -> ([Sleeper], [@Sendable () -> Void]) in
            state.now += duration
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return (Array(due.values), state.observers)
        }
        for sleeper in due { sleeper.continuation.resume() }
        for observer in observers { observer() }
    }

    /// Waits until `count` tasks sleep on this clock, or gives up after `patience` seconds of
    /// real time; true when they do.
    public func waitForSleepers(_ count: Int = 1, patience: Double = 10) async -> Bool {
        await Waiting.until(patience: .milliseconds(Int(patience * 1_000))) { sleeperCount >= count }
    }
}

/// Real time in which every wait is skipped: `now` runs with the system's clock, and a sleep
/// returns at once, moving this clock past its deadline. Code that pauses between requests
/// (a second per Breaking Bad request) or waits out a rate-limit second runs at full speed
/// in a test, while a deadline still sees the real time its requests took.
public final class SkippingClock: SleepingClock {
    private let skipped = Mutex(Duration.zero)
    private let real = SystemClock()

    public init() {}

    public var now: Duration { real.now + skipped.withLock { $0 } }

    /// Everything slept, in all.
    public var totalSkipped: Duration { skipped.withLock { $0 } }

    public func sleep(until deadline: Duration) async throws {
        try Task.checkCancellation()
        skipped.withLock { skipped in
            let left = deadline - (real.now + skipped)
            if left > .zero { skipped += left }
        }
    }

    public func whenMoved(_ moved: @escaping @Sendable () -> Void) {}
}
