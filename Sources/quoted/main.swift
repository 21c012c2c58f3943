import Glibc
import QuoteBase
import QuoteCommandLine
import QuoteSystem

// quoted: the sync daemon. `quoted sync --once` runs the sync engine once.

CurrentProcess.ignoreBrokenPipe()
let words = Array(CommandLine.arguments.dropFirst())
let status: ExitCode
switch words.first {
case "sync":
    status = await SyncOnceCommand.run(Array(words.dropFirst()))
case "--version", "-V":
    printOut("quoted \(QuotedVersion.current)")
    status = .success
case "--help", "-h":
    printOut(HelpText.program(program, width: helpWidth))
    status = .success
case "help":
    printOut(words.dropFirst().first.flatMap(program.command(named:)).map { HelpText.command($0, in: program, width: helpWidth) } ?? HelpText.program(program, width: helpWidth))
    status = .success
case "publish":
    status = PublishCommand.run(Array(words.dropFirst()))
case "metrics":
    status = MetricsCommand.run(Array(words.dropFirst()))
case "run":
    status = await RunCommand.run(Array(words.dropFirst()))
case "completion":
    status = GenerateCommand.completion(Array(words.dropFirst()))
case "manual":
    status = GenerateCommand.manual(Array(words.dropFirst()))
case "__complete":
    status = GenerateCommand.complete(Array(words.dropFirst()))
case let first? where !first.hasPrefix("-"):
    status = usageFailure(.init(message: "unknown subcommand '\(first)'"
        + Suggestion.didYouMean(first, among: program.visibleCommands.map(\.name)), command: nil))
default:
    // No subcommand, or options only: run the daemon (`quoted --config X` is `quoted run --config X`).
    status = await RunCommand.run(words)
}
// Output that could not be written is an error (quoted sync --once --json > /dev/full), except
// for a reader that went away (| head), which `cat` would not complain about either.
if let failure = standardOutputFailure.withLock({ $0 }), failure != EPIPE {
    printError("quoted: cannot write to standard output: \(Errno.describe(failure))")
    CurrentProcess.exit(status == .success ? ExitCode.ioError.rawValue : status.rawValue)
}
CurrentProcess.exit(status.rawValue)
