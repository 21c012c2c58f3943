import Foundation
import QuoteBase
import QuoteSystem
import QuotectlCommands
import TestSupport

/// quotectl's commands run in this process, as `BinaryRunner` runs the binary: a clean
/// environment of the run's own (nothing from the developer's store or configuration leaks in),
/// standard input from a string, and what the run wrote on standard output and error with its
/// exit status. Each run gets a context of its own, so runs of tests side by side never see each
/// other's output, environment or colour. What stays the process's: the language (English: the
/// catalog is never opened here) and the time zone local times are shown in (localtime reads the
/// process's TZ; the environment's reaches `quoted` when `sync` hands over).
struct InProcessQuotectl: Sendable {
    typealias Result = BinaryRunner.Result

    var environment: [String: String]
    /// The width of the terminal standard output is; 0, the default, is a pipe or a file.
    var terminalColumns = 0
    /// The wall clock's reading for every run, in Unix seconds; nil: the system's clock.
    var now: Int?

    init(home: String) {
        environment = ["HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"]
    }

    /// Runs the command line `arguments` to its end, `stdin` its standard input (none: /dev/null).
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil) throws -> Result {
        let input = try StandardInput(stdin)
        let output = MemorySink(), errors = MemorySink()
        let environment = self.environment, fixed = now
        let context = RunContext(
            output: output, errors: errors, input: input.descriptor, environment: environment,
            now: { fixed ?? UnixTime.now() }, outputColumns: terminalColumns,
            handOver: { program, words in Self.handOver(program, words, environment: environment, output: output, errors: errors) })
        let status = withExtendedLifetime(input) { Quotectl.run(arguments, context: context) }
        return Result(status: status.rawValue, stdout: output.text, stderr: errors.text)
    }

    /// `sync` with no daemon: `quoted sync --once` as a child with the run's environment (the
    /// program never becomes another in-process), what it wrote put in the run's streams.
    static func handOver(_ program: String, _ words: [String], environment: [String: String],
                         output: MemorySink, errors: MemorySink) -> ExitCode {
        var child = BinaryRunner(words.first ?? "quoted", home: environment["HOME"] ?? "/", path: program)
        child.environment = environment
        guard let result = try? child.run(Array(words.dropFirst())) else {
            errors.write(Array("quotectl: cannot run \(program)\n".utf8))
            return .unavailable
        }
        output.write(Array(result.stdout.utf8))
        errors.write(Array(result.stderr.utf8))
        return ExitCode(rawValue: result.status)
    }

    /// A run's standard input: its text in a file of its own, read from the start, or /dev/null
    /// (as a process whose input pipe was closed at once reads nothing).
    final class StandardInput {
        let descriptor: Descriptor
        private let file: String?

        init(_ text: String?) throws {
            var path: String?
            if let text {
                let name = NSTemporaryDirectory() + "quotectl-stdin-" + UUID().uuidString
                try Data(text.utf8).write(to: URL(fileURLWithPath: name))
                path = name
            }
            let opened = open(path ?? "/dev/null", O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            descriptor = Descriptor(opened)
            file = path
        }

        deinit {
            close(descriptor.rawValue)
            if let file { unlink(file) }
        }
    }
}
