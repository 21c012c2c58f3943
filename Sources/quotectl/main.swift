import Glibc
import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteStore

// quotectl: reads the quoted store. No Foundation, so it starts like a C program.

let version = QuotedVersion.current
/// Help is wrapped at the terminal's width (80 when piped): asked only when help is printed, not on every start.
var helpWidth: Int { Terminal.isTerminal ? Terminal.columns : 80 }

/// quotectl's subcommands, in the order help lists them, each named once here (its spec takes
/// the name from its case). A run builds only the command it was asked for: building all sixteen
/// specs and their options on every start (and the first uses of their types' metadata) is a
/// tenth of what `quotectl random` costs (docs/benchmarks.md).
enum Subcommand: String, CaseIterable {
    case random, today, search, characters, deaths, markets, weather, `import`, export, forget, status, sync, config,
         completion, manual, complete = "__complete"

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
        case .sync: syncCommand
        case .config: configCommand
        case .completion: completionCommand
        case .manual: manualCommand
        case .complete: completeCommand
        }
    }
}

/// quotectl's whole command line, declared once (help, manual and completions come from it):
/// made when one of them is asked for.
nonisolated var program: ProgramSpec {
    ProgramSpec(name: "quotectl", overview: "Read the quoted store: quotes at once, with no network.",
                globalOptions: Options.global, commands: Subcommand.allCases.map { $0.command.spec })
}

func usageFailure(_ error: UsageError) -> ExitCode {
    Output.standardError(TerminalSanitizer.clean(error.lines(program: "quotectl")))
    return .usage
}

@MainActor func runMain() -> ExitCode {
    signal(SIGPIPE, SIG_IGN)
    let words = Environment.arguments()
    // The subcommand is the first word that is neither an option nor a global option's value.
    var commandIndex: Int?
    var index = 0
    while index < words.count {
        let word = words[index]
        if let global = Options.global.first(where: { $0.spelling == word || $0.short.map { "-\($0)" } == word }), global.valueName != nil {
            index += 2
            continue
        }
        if !word.hasPrefix("-") { commandIndex = index; break }
        index += 1
    }
    guard let commandIndex else {
        do {
            let arguments = try Arguments(words, options: Options.global, command: nil)
            if arguments.has(Options.version) { Output.line("quotectl \(version)"); return .success }
            Output.write(HelpText.program(program, width: helpWidth))
            return arguments.has(Options.help) ? .success : usageFailure(UsageError(message: "missing subcommand", command: nil))
        } catch {
            return usageFailure(error)
        }
    }
    let name = words[commandIndex]
    if name == "help" {
        let topic = words.dropFirst(commandIndex + 1).first
        if let topic, let command = program.command(named: topic) {
            Output.write(HelpText.command(command, in: program, width: helpWidth))
        } else {
            Output.write(HelpText.program(program, width: helpWidth))
        }
        return .success
    }
    guard let command = Subcommand(rawValue: name)?.command else {
        let known = program.visibleCommands.map(\.name)
        return usageFailure(UsageError(message: "unknown subcommand '\(name)'" + Suggestion.didYouMean(name, among: known), command: nil))
    }
    var rest = words
    rest.remove(at: commandIndex)
    do {
        let arguments = try Arguments(rest, options: command.spec.options + Options.global, command: name)
        if arguments.has(Options.help) { Output.write(HelpText.command(command.spec, in: program, width: helpWidth)); return .success }
        if arguments.has(Options.version) { Output.line("quotectl \(version)"); return .success }
        Style.configure(try arguments.value(Options.color, as: Style.When.self) ?? .auto)
        if command.pages, !arguments.has(Options.noPager), let started = Pager.start() { Pager.current.withLock { $0 = started } }
        var context = Context(configOption: arguments.value(Options.config), dbOption: arguments.value(Options.db))
        context.noCreate = arguments.has(Options.noCreate)
        return try command.run(arguments, &context)
    } catch let error as UsageError {
        return usageFailure(error)
    } catch let error as NoMatch {
        Output.flush()
        Output.error(error.message)
        return .noInput
    } catch let error as ConfigError {
        Output.flush()
        Output.error(error.description)
        return .configuration
    } catch let error as StoreError {
        Output.flush()
        Output.error(error.description)
        return error.exitCode
    } catch {
        Output.flush()
        Output.error("\(error)")
        return .software
    }
}

let status = runMain()
Output.flush()
Pager.current.withLock { $0 }?.finish()
exit(status.rawValue)
