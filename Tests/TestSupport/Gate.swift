import Synchronization

/// A gate a test opens when it is ready: what waits at it (a stalled upstream's answer) goes on.
public final class Gate: Sendable {
    private let isOpen = Mutex(false)
    /// Someone has come to the gate and waits there.
    private let isReached = Mutex(false)

    public init() {}

    public func open() { isOpen.withLock { $0 = true } }

    /// Whether something waits (or waited) at the gate.
    public var reached: Bool { isReached.withLock { $0 } }

    /// Blocks the calling thread until the gate opens; at most `patience`, so a test that never
    /// opens it cannot keep a thread of its own forever.
    public func wait(patience: Duration = .seconds(120)) {
        isReached.withLock { $0 = true }
        _ = Waiting.blockingUntil(patience: patience) { isOpen.withLock { $0 } }
    }
}
