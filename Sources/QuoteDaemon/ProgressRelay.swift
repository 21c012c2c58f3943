import QuoteControl
import Synchronization

/// Clients that asked to watch a source's sync (`sync` over the control socket): each progress
/// line of that source reaches them as `progress SOURCE TEXT`. Called from the thread reading
/// the child's output, so the listeners live inside their own lock, not on the actor.
final class ProgressRelay: Sendable {
    private let listeners = Mutex<[Int: (source: String, writer: ReplyWriter)]>([:])

    func add(_ ticket: Int, source: String, writer: ReplyWriter) {
        listeners.withLock { $0[ticket] = (source, writer) }
    }

    func remove(_ ticket: Int) {
        _ = listeners.withLock { $0.removeValue(forKey: ticket) }
    }

    func send(_ source: String, _ text: String) {
        let writers = listeners.withLock { $0.values.filter { $0.source == source }.map(\.writer) }
        for writer in writers { writer.send("progress", source + " " + text) }
    }
}
