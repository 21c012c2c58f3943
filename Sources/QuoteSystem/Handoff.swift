import Glibc
import Synchronization

/// A bounded queue from one thread to another, as a pipeline needs: `put` waits while it is full,
/// `take` waits while it is empty. The producer `close`s it when it has no more; the consumer
/// `abandon`s it when it can take no more (then every `put` answers false at once, so a producer
/// never waits for a consumer that has stopped).
///
/// @unchecked: its state is guarded by a pthread mutex because it needs a condition variable on
/// that same mutex to wait, which Synchronization's `Mutex` does not offer; every access to
/// `items`, `closed` and `abandoned` is inside `pthread_mutex_lock`/`unlock`. Elements must be
/// Sendable: they cross threads.
public final class Handoff<Element: Sendable>: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var items: [Element] = []
    private var closed = false
    private var abandoned = false
    public let capacity: Int

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// Hands `element` over, waiting for room; false when the consumer abandoned the queue.
    public func put(_ element: Element) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while items.count >= capacity && !abandoned { pthread_cond_wait(&changed, &mutex) }
        guard !abandoned, !closed else { return false }
        items.append(element)
        pthread_cond_broadcast(&changed)
        return true
    }

    /// The next element, waiting for one; nil once the queue is closed and empty, or abandoned.
    public func take() -> Element? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while items.isEmpty && !closed && !abandoned { pthread_cond_wait(&changed, &mutex) }
        guard !abandoned, !items.isEmpty else { return nil }
        // At most `capacity` elements: moving the rest up is cheaper than a ring's bookkeeping.
        let element = items.removeFirst()
        pthread_cond_broadcast(&changed)
        return element
    }

    /// No more elements will come: `take` drains what is left, then answers nil.
    public func close() {
        pthread_mutex_lock(&mutex)
        closed = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }

    /// The consumer takes no more: waiting producers wake, and every `put` answers false.
    public func abandon() {
        pthread_mutex_lock(&mutex)
        abandoned = true
        items.removeAll()
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
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
