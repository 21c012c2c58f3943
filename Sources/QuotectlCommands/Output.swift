import Glibc
import QuoteBase
import QuoteSystem
import QuoteConfig
import QuoteText
import Synchronization

/// Buffered standard output, written with write(2) so a closed pipe is an error
/// we can see (SIGPIPE is ignored) rather than a silent death mid-line.
enum Output {
    /// quotectl writes from one thread; the lock costs nanoseconds and makes that a fact.
    private static let buffer = Mutex<[UInt8]>([])

    static func write(_ text: String) {
        let full = buffer.withLock { buffer in
            buffer.append(contentsOf: text.utf8)
            return buffer.count >= 1 << 16
        }
        if full { flush() }
    }

    static func line(_ text: String) {
        write(text)
        write("\n")
    }

    /// Untrusted text, with terminal control sequences removed.
    static func safeLine(_ text: String) {
        line(TerminalSanitizer.clean(text))
    }

    static func flush() {
        let failure = buffer.withLock { buffer -> Errno? in
            defer { buffer.removeAll(keepingCapacity: true) }
            do throws(Errno) {
                try Descriptor.standardOutput.writeAll(buffer)
                return nil
            } catch {
                return error
            }
        }
        guard let failure else { return }
        // The reader went away (quotectl export | head): stop quietly, as cat does.
        if failure == .brokenPipe { CurrentProcess.exit(0) }
        error(tr("cannot write to standard output: \(failure)"))
        CurrentProcess.exit(ExitCode.ioError.rawValue)
    }

    /// One line on standard error, prefixed with the program name.
    static func error(_ message: String) {
        standardError("quotectl: " + TerminalSanitizer.clean(message) + "\n")
    }

    /// Unbuffered, so it interleaves correctly with what was already flushed.
    static func standardError(_ text: String) {
        try? Descriptor.standardError.writeAll(text)
    }
}
