import Glibc

/// A value each thread sees its own of, bound for the length of a call (`withValue`) and the
/// default elsewhere: how a command run in-process finds its own streams and environment while a
/// test runs others beside it. A POSIX thread-specific key, not a task-local: quotectl runs its
/// commands synchronously, and a task-local would link Swift's concurrency runtime and
/// libdispatch into it, whose start-up costs every run (docs/benchmarks.md).
public final class ThreadLocal<Value: Sendable>: Sendable {
    /// What a binding holds: a class, so the key stores a pointer the binding's frame owns.
    private final class Bound {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private let key: pthread_key_t
    private let defaultValue: Value

    /// A new key (a process has 1,024; quoted makes two, once each).
    public init(_ defaultValue: Value) {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
        self.key = key
        self.defaultValue = defaultValue
    }

    /// The value bound on this thread, or the default.
    public var value: Value {
        guard let bound = pthread_getspecific(key) else { return defaultValue }
        return Unmanaged<Bound>.fromOpaque(bound).takeUnretainedValue().value
    }

    /// Runs `operation` with `value` bound on this thread, then restores what was bound before.
    public func withValue<Result, Failure: Error>(_ value: Value, operation: () throws(Failure) -> Result) throws(Failure) -> Result {
        let bound = Bound(value)
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(bound).toOpaque())
        defer {
            pthread_setspecific(key, outer)
            withExtendedLifetime(bound) {}
        }
        return try operation()
    }
}
