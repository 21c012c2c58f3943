import Glibc
import QuoteBase

/// One line on stderr, unbuffered.
func printError(_ text: String, newline: Bool = true) {
    writeAll(2, newline ? text + "\n" : text)
}

/// Lines on stdout, flushed at once (progress must not wait for a full buffer).
func printOut(_ text: String, newline: Bool = true) {
    writeAll(1, newline ? text + "\n" : text)
}

private func writeAll(_ descriptor: Int32, _ text: String) {
    Descriptor.write(descriptor, text)
}
