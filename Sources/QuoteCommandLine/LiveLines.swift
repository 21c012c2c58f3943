import Glibc
import QuoteBase
import QuoteSystem
import Synchronization

/// One live line per running job on a terminal (`upbit: receiving 2.1 of 8.4 MB`), redrawn in
/// place, and replaced by the job's one-line summary when it ends — which stays, above the
/// live lines still running. Used only when the output is a terminal; otherwise callers print
/// the summaries as they always did.
public final class LiveLines: Sendable {
    private struct State {
        var order: [String] = []
        var lines: [String: String] = [:]
        /// How many live lines are on screen now.
        var drawn = 0
    }

    private let state = Mutex(State())
    private let descriptor: Int32
    private let width: Int

    public init(descriptor: Int32 = 2, width: Int) {
        self.descriptor = descriptor
        self.width = max(20, width)
    }

    /// `job`'s live line is now `text` (cut to the terminal's width).
    public func update(_ job: String, _ text: String) {
        state.withLock { state in
            if state.lines[job] == nil { state.order.append(job) }
            state.lines[job] = text
            redraw(&state, permanent: nil)
        }
    }

    /// `job` ended: its live line becomes `summary`, printed for good.
    public func finish(_ job: String, summary: String) {
        state.withLock { state in
            state.order.removeAll { $0 == job }
            state.lines[job] = nil
            redraw(&state, permanent: summary)
        }
    }

    private func redraw(_ state: inout State, permanent: String?) {
        var out = ""
        if state.drawn > 0 { out += "\u{1B}[\(state.drawn)A" }  // back to the first live line
        if let permanent { out += "\r\u{1B}[2K" + permanent + "\n" }
        for job in state.order {
            out += "\r\u{1B}[2K" + cut(state.lines[job] ?? "") + "\n"
        }
        // Lines left over from a taller block are cleared.
        let leftover = state.drawn - state.order.count - (permanent == nil ? 0 : 1)
        if leftover > 0 {
            for _ in 0..<leftover { out += "\r\u{1B}[2K\n" }
            out += "\u{1B}[\(leftover)A"
        }
        state.drawn = state.order.count
        write(out)
    }

    private func cut(_ text: String) -> String {
        text.count <= width - 1 ? text : String(text.prefix(width - 2)) + "…"
    }

    private func write(_ text: String) {
        try? Descriptor(descriptor).writeAll(text)
    }
}
