import QuoteBase
import QuoteSystem

/// What one run of quotectl works with besides its arguments: where its standard output and error
/// go, its standard input, the environment it reads, its clock, what terminal it writes to, and how
/// it hands over to another program. A program has one (`program`); a test makes one per run, so
/// runs side by side in one process never see each other's output, environment, colour or pager.
/// The store is opened per command, from the run's options and environment (`Context.store`).
public struct RunContext: Sendable {
    /// Standard output: buffered, written in pieces of 64 KiB and before anything said on stderr.
    let output: any ByteSink
    /// Standard error, written at once.
    let errors: any ByteSink
    /// Standard input (`import -`).
    let input: Descriptor
    /// The environment; nil: the process's own, each variable read with getenv when asked for.
    let environment: [String: String]?
    /// The wall clock, in Unix seconds.
    let now: @Sendable () -> Int
    /// Columns of the terminal on standard output (0: none), and on standard error: asked once each, when first needed.
    let outputColumns: @Sendable () -> Int
    let errorColumns: @Sendable () -> Int
    /// Standard output as a descriptor `--follow` polls and writes a page at a time; nil: not a program's.
    let followableOutput: Descriptor?
    /// Long output may go through $PAGER: the program owns its standard output, a pager can take it over.
    let pages: Bool
    /// With no daemon, `quotectl sync` becomes `quoted sync --once`: the program given, with its
    /// arguments (arguments[0] its name); the exit status, or why it could not.
    let handOver: @Sendable (_ program: String, _ arguments: [String]) -> ExitCode
    /// The process ends with the run (the program's own): the store a command read is left to
    /// the exit (`Store.leaveToTheExit`). A test's run closes what it opened.
    let endsWithTheProcess: Bool

    /// A run that is not the program's own (a test's): `environment` is the whole of what it reads;
    /// `outputColumns` above 0 makes standard output a terminal that wide (never paged: no pager
    /// takes over a run in-process); `handOver` runs `quoted sync --once` for it.
    public init(output: any ByteSink, errors: any ByteSink, input: Descriptor, environment: [String: String],
                now: @escaping @Sendable () -> Int = { UnixTime.now() }, outputColumns: Int = 0,
                handOver: @escaping @Sendable (_ program: String, _ arguments: [String]) -> ExitCode) {
        self.output = output
        self.errors = errors
        self.input = input
        self.environment = environment
        self.now = now
        self.outputColumns = { outputColumns }
        errorColumns = { 0 }
        followableOutput = nil
        pages = false
        self.handOver = handOver
        endsWithTheProcess = false
    }

    private init(programHandingOver handOver: @escaping @Sendable (_ program: String, _ arguments: [String]) -> ExitCode) {
        output = ProgramOutput()
        errors = ProgramErrors()
        input = .standardInput
        environment = nil
        now = { UnixTime.now() }
        outputColumns = { Descriptor.standardOutput.terminalColumns }
        errorColumns = { Descriptor.standardError.terminalColumns }
        followableOutput = .standardOutput
        pages = true
        self.handOver = handOver
        endsWithTheProcess = true
    }

    /// The program's own: its standard streams, environment and clock; `sync` replaces the process.
    public static let program = RunContext(programHandingOver: { program, arguments in
        let failure = Subprocess.replaceProcess(with: program, arguments: arguments)
        Output.error(tr("cannot run \(program): \(failure)"))
        return .unavailable
    })
}
