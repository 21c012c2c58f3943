import QuoteBase
import QuoteSystem
import Synchronization

/// Where a run's bytes go: a program's standard output or error, or memory (a run in-process).
public protocol ByteSink: Sendable {
    func write(_ bytes: [UInt8])
}

/// What a run in-process wrote, kept in memory to be read once it returned.
public final class MemorySink: ByteSink {
    private let kept = Mutex<[UInt8]>([])

    public init() {}

    public func write(_ bytes: [UInt8]) {
        kept.withLock { $0.append(contentsOf: bytes) }
    }

    public var bytes: [UInt8] { kept.withLock { $0 } }
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// A program's standard output, written with write(2) so that a closed pipe is an error we can
/// see (SIGPIPE is ignored) rather than a silent death mid-line. The reader went away (quotectl
/// export | head): the program stops quietly, as cat does; any other failure is said, exit 74.
/// A program's alone: a run in-process writes to memory, and never ends its process.
struct ProgramOutput: ByteSink {
    func write(_ bytes: [UInt8]) {
        do throws(Errno) {
            try Descriptor.standardOutput.writeAll(bytes)
        } catch {
            if error == .brokenPipe { CurrentProcess.exit(0) }
            Output.error(tr("cannot write to standard output: \(error)"))
            CurrentProcess.exit(ExitCode.ioError.rawValue)
        }
    }
}

/// A program's standard error, unbuffered so that it interleaves with what was already flushed.
struct ProgramErrors: ByteSink {
    func write(_ bytes: [UInt8]) {
        try? Descriptor.standardError.writeAll(bytes)
    }
}
