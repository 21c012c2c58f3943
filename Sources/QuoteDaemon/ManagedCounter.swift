import Synchronization

/// A count that lives inside its lock.
final class ManagedCounter: Sendable {
    private let value = Mutex(0)

    func increment(limit: Int) -> Bool {
        value.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func decrement() { value.withLock { $0 -= 1 } }

    var count: Int { value.withLock { $0 } }
}
