import Foundation

/// What wakes the scheduler: a command, a finished sync, or a deadline.
/// The loop sleeps in `next(until:)` — no polling — and anything may `post`.
public final class EventQueue: @unchecked Sendable {
    public enum Event: Sendable, Equatable {
        case wake
        case stop
    }

    private let lock = NSLock()
    private var pending: [Event] = []
    private var waiter: CheckedContinuation<Event?, Never>?
    private var timer: Task<Void, Never>?
    private var generation = 0

    public init() {}

    public func post(_ event: Event) {
        let resume = lock.withLock { () -> CheckedContinuation<Event?, Never>? in
            if let waiter {
                self.waiter = nil
                timer?.cancel()
                timer = nil
                return waiter
            }
            pending.append(event)
            return nil
        }
        resume?.resume(returning: event)
    }

    /// The next event, or nil when `deadline` (on the continuous clock, which keeps
    /// counting through a suspend) passes first.
    public func next(until deadline: ContinuousClock.Instant?) async -> Event? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Event?, Never>) in
            lock.lock()
            if !pending.isEmpty {
                let event = pending.removeFirst()
                lock.unlock()
                continuation.resume(returning: event)
                return
            }
            waiter = continuation
            generation += 1
            let mine = generation
            if let deadline {
                timer = Task { [weak self] in
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    guard !Task.isCancelled else { return }
                    self?.expire(generation: mine)
                }
            }
            lock.unlock()
        }
    }

    private func expire(generation expired: Int) {
        let resume = lock.withLock { () -> CheckedContinuation<Event?, Never>? in
            guard expired == generation, let waiter else { return nil }
            self.waiter = nil
            timer = nil
            return waiter
        }
        resume?.resume(returning: nil)
    }
}
