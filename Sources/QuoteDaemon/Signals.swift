import Glibc
import QuoteBase
import QuoteSystem

/// Signals as an async sequence. A C handler (async-signal-safe: one write(2)) puts each
/// signal's number into a pipe, and a thread of its own reads the pipe into the stream —
/// whichever thread the kernel picked to deliver it. Call `stream` before announcing
/// readiness: from then on no watched signal is lost or runs its default action.
public enum Signals {
    public static let watched: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGUSR1]

    public struct InstallError: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { "cannot handle signals: \(reason)" }
    }

    /// The signals as they arrive. Throws when the handlers or their reader cannot be set up:
    /// a daemon that cannot hear SIGTERM must not start.
    public static func install(_ numbers: [Int32] = watched) throws(InstallError) -> AsyncStream<Int32> {
        // The pipe's read end lives as long as the reading thread (the process, in practice).
        let readEnd: Descriptor
        do { readEnd = try CurrentProcess.signalPipe(numbers) } catch { throw InstallError(reason: error.description) }
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let started = BlockingWork.start {
            var byte: [UInt8] = [0]
            while let count = try? readEnd.read(into: &byte), count == 1 {
                if case .terminated = continuation.yield(Int32(byte[0])) { return }
            }
        }
        guard started else {
            FileDescriptor(adopting: readEnd.rawValue).close()
            throw InstallError(reason: "no thread to read them on")
        }
        return stream
    }
}
