import Synchronization

/// Set once by a task's cancellation handler, read from whatever thread does the blocking
/// work (libcurl's progress callback, SQLite's progress handler): the only state that
/// crosses from the cancelling task to that thread, so it is an atomic, not a C pointer.
public final class CancelFlag: Sendable {
    private let value = Atomic<Bool>(false)

    public init() {}

    public func set() { value.store(true, ordering: .relaxed) }
    public var isSet: Bool { value.load(ordering: .relaxed) }
}
