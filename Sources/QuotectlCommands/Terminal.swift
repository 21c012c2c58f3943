import Glibc
import QuoteBase
import QuoteSystem

/// What this run's standard output is: a terminal (then quotes wrap, tables get a header, colour
/// and a pager may be used) or a pipe or file (then output stays plain and stable for scripts).
enum Terminal {
    /// Columns of the terminal on stdout; 0 when stdout is not a terminal.
    static var columns: Int { Run.current.outputColumns }
    static var isTerminal: Bool { columns > 0 }
    /// Quotes are read best at most 80 columns wide, however wide the terminal.
    static var readingWidth: Int { min(columns, 80) }
}

/// Colour: on a terminal unless NO_COLOR is set, or as `--color=always|never` says (this run's).
enum Style {
    enum When: String, CaseIterable, Sendable { case auto, always, never }

    static func configure(_ when: When) {
        let on: Bool
        switch when {
        case .always: on = true
        case .never: on = false
        case .auto: on = Terminal.isTerminal && Environment.variable("NO_COLOR") == nil
        }
        Run.current.colour.withLock { $0 = on }
    }

    static func bold(_ text: String) -> String { wrap(text, "1") }
    static func dim(_ text: String) -> String { wrap(text, "2") }
    static func red(_ text: String) -> String { wrap(text, "31") }
    static func yellow(_ text: String) -> String { wrap(text, "33") }

    private static func wrap(_ text: String, _ code: String) -> String {
        Run.current.colour.withLock { $0 } ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }
}

/// Long output on a terminal goes through $PAGER (default `less`, with LESS=FRX so that one
/// screenful is simply printed), as git does; `--no-pager` or a pipe turns it off. A program's
/// alone: the pager takes over the process's standard output (a run's own pager: `Run.pager`).
struct Pager: Sendable {
    private let process: Subprocess

    static func start() -> Pager? {
        guard Run.current.context.pages, Terminal.isTerminal else { return nil }
        let command = Environment.variable("PAGER") ?? "less"
        guard command != "cat" else { return nil }
        if Environment.variable("LESS") == nil { setenv("LESS", "FRX", 1) }
        do throws(Errno) {
            var started = try Subprocess.spawn("/bin/sh", arguments: ["/bin/sh", "-c", command], input: .pipe)
            // Our standard output becomes the pager's input.
            if let input = started.input.take() {
                try input.io.duplicate(as: .standardOutput)
                input.close()
            }
            return Pager(process: started.process)
        } catch {
            return nil
        }
    }

    /// Ends our output and waits for the reader to quit the pager.
    func finish() {
        Descriptor.standardOutput.closeStandardStream()
        _ = process.wait()
    }
}
