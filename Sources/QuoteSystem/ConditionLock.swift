import Glibc

/// A value that lives inside its lock, with a condition to wait on (what Synchronization's
/// `Mutex` lacks): `withLock` changes the value and wakes every waiter; `wait(until:then:)` sleeps
/// until the value satisfies a predicate, then acts on it under the same lock.
///
/// @unchecked Sendable: the value is reached only through `withLock` and `wait`, between
/// `pthread_mutex_lock` and `unlock`; the mutex and condition are allocated once, so their
/// addresses never move (a pthread object must not be copied). The one unchecked primitive
/// under `Handoff`.
public final class ConditionLock<Value: Sendable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        changed.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` on the value under the lock, then wakes every waiter.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// Waits until `ready` holds for the value, then runs `body` on it under the same lock and
    /// wakes every waiter.
    public func wait<Result>(until ready: (Value) -> Bool, then body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }
        while !ready(value) { pthread_cond_wait(changed, mutex) }
        return try body(&value)
    }
}
