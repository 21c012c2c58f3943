import Glibc
import QuoteBase
import QuoteSystem
import Synchronization

/// One line on stderr, unbuffered.
func printError(_ text: String, newline: Bool = true) {
    try? Descriptor.standardError.writeAll(newline ? text + "\n" : text)
}

/// Lines on stdout, flushed at once (progress must not wait for a full buffer). A line that
/// cannot be written is remembered: the command ends as it would, then `main` reports it.
func printOut(_ text: String, newline: Bool = true) {
    do {
        try Descriptor.standardOutput.writeAll(newline ? text + "\n" : text)
    } catch {
        standardOutputFailure.withLock { if $0 == nil { $0 = error.code } }
    }
}

/// The first errno a write to standard output failed with (a full disk, a closed pipe), if any.
let standardOutputFailure = Mutex<Int32?>(nil)
