import Glibc
import QuoteBase
import QuoteCommandLine
import QuoteSystem
import QuoteSystemTasks

// quoted: the sync daemon. `quoted sync --once` runs the sync engine once.

CurrentProcess.ignoreBrokenPipe()
let words = Array(CommandLine.arguments.dropFirst())
// libdispatch's manager thread (its timers, its worker-pool monitor) asks for nice -4 in every
// process, which an unprivileged one may not take: the refusal changes nothing, but libdispatch
// logs it to the journal once a process, so once a sync. The rest of what it logs is its own
// non-fatal bug reports; LIBDISPATCH_LOG=YES (or syslog, stderr) in the environment brings all back.
Environment.setDefault("LIBDISPATCH_LOG", "NO")
// Not a top-level `await`: that task would have the main thread's user-initiated priority, which
// unprivileged worker threads cannot take (see WorkerPriority).
let status = WorkerPriority.run { await main(words) }

/// Whether quoted speaks the user's language: only for what a person reads at a terminal (help,
/// usage mistakes, the manual pages, reload's and publish's answers). Never for the daemon (`run`,
/// the default) or `sync --once`, whose lines are the journal's and whose results are stored in
/// sync_log, and never when standard error is the journal (`systemctl reload` runs quoted reload):
/// administrators grep the journal in English, as systemd's own lines.
func speaksUserLanguage(_ words: [String]) -> Bool {
    if JournalSocket.isStandardError(journalStream: Environment.variable("JOURNAL_STREAM")) { return false }
    let asksHelp = words.contains("--help") || words.contains("-h")
    switch words.first {
    case nil, "run", "sync": return asksHelp
    case "--help", "-h", "help": return true
    case let first? where first.hasPrefix("-"): return asksHelp  // options only: the daemon
    default: return true
    }
}

/// The subcommand `words` name, run to its exit status.
func main(_ words: [String]) async -> ExitCode {
    if speaksUserLanguage(words) { speakTheUsersLanguage() }
    switch words.first {
    case "sync":
        return await SyncOnceCommand.run(Array(words.dropFirst()))
    case "--version", "-V":
        printOut("quoted \(QuotedVersion.current)")
        return .success
    case "--help", "-h":
        printOut(HelpText.program(program, width: helpWidth))
        return .success
    case "help":
        printOut(words.dropFirst().first.flatMap(program.command(named:)).map { HelpText.command($0, in: program, width: helpWidth) } ?? HelpText.program(program, width: helpWidth))
        return .success
    case "publish":
        return PublishCommand.run(Array(words.dropFirst()))
    case "metrics":
        return MetricsCommand.run(Array(words.dropFirst()))
    case "reload":
        return ReloadCommand.run(Array(words.dropFirst()))
    case "run":
        return await RunCommand.run(Array(words.dropFirst()))
    case "completion":
        return GenerateCommand.completion(Array(words.dropFirst()))
    case "manual":
        return GenerateCommand.manual(Array(words.dropFirst()))
    case "__complete":
        return GenerateCommand.complete(Array(words.dropFirst()))
    case let first? where !first.hasPrefix("-"):
        return usageFailure(.init(message: tr("unknown subcommand '\(first)'")
            + Suggestion.didYouMean(first, among: program.visibleCommands.map(\.name)), command: nil))
    default:
        // No subcommand, or options only: run the daemon (`quoted --config X` is `quoted run --config X`).
        return await RunCommand.run(words)
    }
}

// Output that could not be written is an error (quoted sync --once --json > /dev/full), except
// for a reader that went away (| head), which `cat` would not complain about either.
if let failure = standardOutputFailure.withLock({ $0 }), failure != EPIPE {
    printError("quoted: " + tr("cannot write to standard output: \(Errno.describe(failure))"))
    CurrentProcess.exit(status == .success ? ExitCode.ioError.rawValue : status.rawValue)
}
CurrentProcess.exit(status.rawValue)
