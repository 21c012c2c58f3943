import QuoteText

/// This run's standard output, buffered, and its standard error (`Run.current`'s streams: a
/// program's descriptors, or a run in-process's memory).
enum Output {
    static func write(_ text: String) {
        Run.current.write(text)
    }

    static func line(_ text: String) {
        let run = Run.current
        run.write(text)
        run.write("\n")
    }

    /// Untrusted text, with terminal control sequences removed.
    static func safeLine(_ text: String) {
        line(TerminalSanitizer.clean(text))
    }

    static func flush() {
        Run.current.flush()
    }

    /// One line on standard error, prefixed with the program name.
    static func error(_ message: String) {
        standardError("quotectl: " + TerminalSanitizer.clean(message) + "\n")
    }

    /// Unbuffered, so it interleaves correctly with what was already flushed.
    static func standardError(_ text: String) {
        Run.current.context.errors.write(Array(text.utf8))
    }
}
