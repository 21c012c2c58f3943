import Glibc

/// One line on stderr, unbuffered.
func printError(_ text: String, newline: Bool = true) {
    writeAll(2, newline ? text + "\n" : text)
}

/// Lines on stdout, flushed at once (progress must not wait for a full buffer).
func printOut(_ text: String, newline: Bool = true) {
    writeAll(1, newline ? text + "\n" : text)
}

private func writeAll(_ descriptor: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return }
        written += count
    }
}
