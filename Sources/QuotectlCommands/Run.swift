import QuoteSystem
import Synchronization

/// One run of quotectl: its context, and what the run sets as it goes — the standard output not
/// written yet, whether it writes in colour, the pager it writes through. Bound for the run's
/// length (`Run.current`, a thread-local: reading it costs a lookup, nothing is built), so that
/// each run in-process has its own while the commands write through `Output`, `Terminal` and
/// `Style` as they always did.
final class Run: Sendable {
    static var current: Run { bound.value }

    /// The run bound on this thread (`Quotectl.run`), or the program's own.
    static let bound = ThreadLocal(Run(context: .program))

    let context: RunContext
    /// The run's colour (`Style`) and pager (`Pager.start`), each set once by the command's start.
    let colour = Mutex(false)
    let pager = Mutex<Pager?>(nil)
    private let unwritten = Mutex<[UInt8]>([])
    private let knownOutputColumns = Mutex<Int?>(nil)
    private let knownErrorColumns = Mutex<Int?>(nil)

    init(context: RunContext) {
        self.context = context
    }

    /// The run's wall clock, in Unix seconds.
    static func now() -> Int { current.context.now() }

    /// Columns of the terminal on standard output, and on standard error (0: none), each asked
    /// the first time only.
    var outputColumns: Int { Self.known(knownOutputColumns, asking: context.outputColumns) }
    var errorColumns: Int { Self.known(knownErrorColumns, asking: context.errorColumns) }

    // One lock per stream, not a key path into a tuple of both: a key path is built at run time on
    // its first use, which cost every `quotectl random` a twentieth of its instructions.
    private static func known(_ columns: borrowing Mutex<Int?>, asking: () -> Int) -> Int {
        columns.withLock { known in
            if let known { return known }
            let asked = asking()
            known = asked
            return asked
        }
    }

    /// Buffered: written out once 64 KiB are waiting, and by `flush`.
    func write(_ text: String) {
        let full = unwritten.withLock { buffer in
            buffer.append(contentsOf: text.utf8)
            return buffer.count >= 1 << 16
        }
        if full { flush() }
    }

    func flush() {
        unwritten.withLock { buffer in
            guard !buffer.isEmpty else { return }
            context.output.write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// The end of the run's output: the pager, if one took it, gets its end and is waited for.
    func finishPager() {
        pager.withLock { $0 }?.finish()
    }
}
