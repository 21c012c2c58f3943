import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteStore
import QuoteSystem
import QuoteText
import QuoteUserState

/// quotectl as a library: every command, run on a command line with a context (`RunContext`).
/// The program (Sources/quotectl) runs it with its own; tests run it in-process with theirs.
public enum Quotectl {
    /// Runs the command line `words` (the words after the program's name) in `context`: what it
    /// prints goes to the context's streams, and its exit status is returned. A run never ends its
    /// process, but in the program's own context, as the program always has: a closed pipe ends it
    /// quietly, and `sync` with no daemon becomes `quoted sync --once`.
    public static func run(_ words: [String], context: RunContext) -> ExitCode {
        // The program's run is the thread-locals' default (the process's own streams and getenv):
        // it binds nothing.
        guard let environment = context.environment else { return finished(commandLine(words), Run.current) }
        let run = Run(context: context)
        return Run.bound.withValue(run) {
            Environment.withVariables(Environment.Variables(environment)) { finished(commandLine(words), run) }
        }
    }

    /// The run's status, once what it buffered is written and its pager has ended.
    private static func finished(_ status: ExitCode, _ run: Run) -> ExitCode {
        run.flush()
        run.finishPager()
        return status
    }

    /// Whether a run of `words` speaks the user's language (`speakTheUsersLanguage()`, a program's
    /// choice: the locale is the process's) for every message, help text and table (machine
    /// output stays as it is) — all but `check`'s run: a Nagios plugin's line, usage errors
    /// included, is English for the monitoring system (its --help is for a person).
    public static func speaksTheUsersLanguage(_ words: [String]) -> Bool {
        let commandIndex = subcommandIndex(in: words)
        let nagios = commandIndex.map { words[$0] == Subcommand.check.rawValue } == true && !words.contains { $0 == "--help" || $0 == "-h" }
        return !nagios
    }
}

let version = QuotedVersion.current
/// Help is wrapped at the terminal's width (80 when piped): asked only when help is printed, not on every start.
var helpWidth: Int { Terminal.isTerminal ? Terminal.columns : 80 }

/// quotectl's subcommands, in the order help lists them, each named once here (its spec takes
/// the name from its case). A run builds only the command it was asked for: building all sixteen
/// specs and their options on every start (and the first uses of their types' metadata) is a
/// tenth of what `quotectl random` costs (docs/benchmarks.md).
enum Subcommand: String, CaseIterable {
    case random, today, search, characters, deaths, markets, weather, `import`, export, forget, status, check, sync, config,
         like, hide, unhide, liked, next,
         completion, manual, complete = "__complete"

    /// The subcommand called `name`. Not `init(rawValue:)`: for an enum this large the compiler
    /// builds a `[String: Int]` on its first use, and that dictionary's metadata, instantiated at
    /// run time, costs a scan of every protocol conformance in the binary (docs/benchmarks.md).
    static func named(_ name: String) -> Subcommand? { allCases.first { $0.rawValue == name } }

    var command: Command {
        switch self {
        case .random: randomCommand
        case .today: todayCommand
        case .search: searchCommand
        case .characters: charactersCommand
        case .deaths: deathsCommand
        case .markets: marketsCommand
        case .weather: weatherCommand
        case .import: importCommand
        case .export: exportCommand
        case .forget: forgetCommand
        case .status: statusCommand
        case .check: checkCommand
        case .sync: syncCommand
        case .config: configCommand
        case .like: likeCommand
        case .hide: hideCommand
        case .unhide: unhideCommand
        case .liked: likedCommand
        case .completion: completionCommand
        case .manual: manualCommand
        case .complete: completeCommand
        case .next: nextCommand
        }
    }
}

/// quotectl's whole command line, declared once (help, manual and completions come from it):
/// made when one of them is asked for.
var program: ProgramSpec {
    ProgramSpec(name: "quotectl", overview: "Read the quoted store: quotes at once, with no network.",
                globalOptions: Options.global, commands: Subcommand.allCases.map { $0.command.spec })
}

func usageFailure(_ error: UsageError) -> ExitCode {
    Output.standardError(TerminalSanitizer.clean(error.lines(program: "quotectl")))
    return .usage
}

/// The command line's run: its subcommand found, then run with the rest of its words; what the
/// command threw is said on standard error, with its exit status.
func commandLine(_ words: [String]) -> ExitCode {
    guard let commandIndex = subcommandIndex(in: words) else { return runWithoutSubcommand(words) }
    let name = words[commandIndex]
    if name == "help" {
        printHelp(topic: words.dropFirst(commandIndex + 1).first)
        return .success
    }
    guard let command = Subcommand.named(name)?.command else {
        let known = program.visibleCommands.map(\.name)
        return usageFailure(UsageError(message: tr("unknown subcommand '\(name)'") + Suggestion.didYouMean(name, among: known), command: nil))
    }
    var rest = words
    rest.remove(at: commandIndex)
    do {
        return try run(command, named: name, rest)
    } catch let error as UsageError {
        return command.onUsageError(error)
    } catch {
        return failure(error)
    }
}

/// The subcommand is the first word that is neither an option nor a global option's value.
func subcommandIndex(in words: [String]) -> Int? {
    var index = 0
    while index < words.count {
        let word = words[index]
        if let global = Options.global.first(where: { $0.spelling == word || $0.short.map { "-\($0)" } == word }), global.valueName != nil {
            index += 2
            continue
        }
        if !word.hasPrefix("-") { return index }
        index += 1
    }
    return nil
}

/// `quotectl --version`, `quotectl --help`, or a missing subcommand (the help, then exit 64).
func runWithoutSubcommand(_ words: [String]) -> ExitCode {
    do {
        let arguments = try Arguments(words, options: Options.global, command: nil)
        if arguments.has(Options.version) { Output.line("quotectl \(version)"); return .success }
        Output.write(HelpText.program(program, width: helpWidth))
        return arguments.has(Options.help) ? .success : usageFailure(UsageError(message: tr("missing subcommand"), command: nil))
    } catch {
        return usageFailure(error)
    }
}

/// `quotectl help [COMMAND]`: the command's help when it names one, else the program's.
func printHelp(topic: String?) {
    if let topic, let command = program.command(named: topic) {
        Output.write(HelpText.command(command, in: program, width: helpWidth))
    } else {
        Output.write(HelpText.program(program, width: helpWidth))
    }
}

/// One subcommand with its arguments: help and version first, then the colour, the pager and the store's context.
func run(_ command: Command, named name: String, _ words: [String]) throws -> ExitCode {
    let arguments = try Arguments(words, options: command.spec.options + Options.global, command: name)
    if arguments.has(Options.help) { Output.write(HelpText.command(command.spec, in: program, width: helpWidth)); return .success }
    if arguments.has(Options.version) { Output.line("quotectl \(version)"); return .success }
    Style.configure(try arguments.value(Options.color))
    if command.pages, !arguments.has(Options.noPager), !arguments.has(Options.follow), let started = Pager.start() { Run.current.pager.withLock { $0 = started } }
    var context = Context(configOption: arguments.value(Options.config), dbOption: arguments.value(Options.db))
    context.noCreate = arguments.has(Options.noCreate)
    let status = try command.run(arguments, &context)
    // Not while a pager shows the output: the run waits for it, and an open reader would keep
    // the daemon's last close from its checkpoint all that time.
    if Run.current.context.endsWithTheProcess, Run.current.pager.withLock({ $0 }) == nil { context.leaveToTheExit() }
    return status
}

/// What a command's error prints on stderr (after what it printed on stdout), and its exit status.
func failure(_ error: any Error) -> ExitCode {
    if let error = error as? UsageError { return usageFailure(error) }
    Output.flush()
    switch error {
    case let error as NoMatch:
        Output.error(error.message)
        return .noInput
    case let error as ConfigError:
        Output.error(error.description)
        let more = error.others.count
        if more > 0 {
            Output.error(trn(more, "and \(more) more problem in the file: 'quotectl config check' names every one",
                             "and \(more) more problems in the file: 'quotectl config check' names every one"))
        }
        return .configuration
    case let error as StoreError:
        Output.error(error.description)
        return error.exitCode
    case let error as UserStateError:
        Output.error(error.message)
        return error.exitCode
    case let error as FileSystemError:
        Output.error(error.description)
        return .ioError
    default:
        Output.error("\(error)")
        return .software
    }
}
