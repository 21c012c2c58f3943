import Glibc
import Synchronization

/// A bounded queue from one thread to another, as a pipeline needs: `put` waits while it is full,
/// `take` waits while it is empty. The producer `close`s it when it has no more; the consumer
/// `abandon`s it when it can take no more (then every `put` answers false at once, so a producer
/// never waits for a consumer that has stopped). Its state lives inside a `ConditionLock`;
/// elements must be Sendable: they cross threads.
public final class Handoff<Element: Sendable>: Sendable {
    private struct State: Sendable {
        var items: [Element] = []
        var closed = false
        var abandoned = false
    }

    private let state = ConditionLock(State())
    public let capacity: Int

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Hands `element` over, waiting for room; false when the consumer abandoned the queue.
    public func put(_ element: Element) -> Bool {
        let capacity = capacity
        return state.wait(until: { $0.items.count < capacity || $0.abandoned }) { state in
            guard !state.abandoned, !state.closed else { return false }
            state.items.append(element)
            return true
        }
    }

    /// The next element, waiting for one; nil once the queue is closed and empty, or abandoned.
    public func take() -> Element? {
        state.wait(until: { !$0.items.isEmpty || $0.closed || $0.abandoned }) { state in
            guard !state.abandoned, !state.items.isEmpty else { return nil }
            // At most `capacity` elements: moving the rest up is cheaper than a ring's bookkeeping.
            return state.items.removeFirst()
        }
    }

    /// No more elements will come: `take` drains what is left, then answers nil.
    public func close() {
        state.withLock { $0.closed = true }
    }

    /// The consumer takes no more: waiting producers wake, and every `put` answers false.
    public func abandon() {
        state.withLock { state in
            state.abandoned = true
            state.items.removeAll()
        }
    }
}

/// A thread whose end can be waited for (`BlockingWork.start`'s threads are detached).
public final class JoinableThread: Sendable {
    /// The thread, until someone joins it (then nil: a second `join` returns at once).
    private let unjoined: Mutex<pthread_t?>

    /// Starts `body` on a new thread; nil if the system refused one.
    public init?(_ body: @escaping @Sendable () -> Void) {
        final class Work {
            let body: () -> Void
            init(_ body: @escaping () -> Void) { self.body = body }
        }
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, work)
        guard result == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            return nil
        }
        unjoined = Mutex(thread)
    }

    /// Waits for the thread's body to return (once; later calls return at once).
    public func join() {
        guard let thread = unjoined.withLock({ state in defer { state = nil }; return state }) else { return }
        pthread_join(thread, nil)
    }

    deinit { if let thread = unjoined.withLock({ $0 }) { pthread_detach(thread) } }
}
