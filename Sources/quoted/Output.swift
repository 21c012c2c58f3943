import Foundation
import QuoteConfig

/// One line on stderr, unbuffered.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Lines on stdout, flushed at once (progress must not wait for a full buffer).
func printOut(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
