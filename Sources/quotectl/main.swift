import Glibc
import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteStore

// quotectl: reads the quoted store. No Foundation, so it starts like a C program.

let version = QuotedVersion.current

let commands: [Command] = [
    randomCommand, todayCommand, searchCommand, charactersCommand, deathsCommand, marketsCommand,
    weatherCommand, importCommand, exportCommand, forgetCommand, statusCommand, syncCommand, configCommand,
]

/// Built only when asked for: top-level globals in main.swift are computed at start-up.
func topHelp() -> String {
    var text = """
        OVERVIEW: Read the quoted store: quotes at once, with no network.

        USAGE: quotectl [--db PATH] [--config PATH] <subcommand> [<options>]

        OPTIONS:

        """
    for (syntax, explanation) in Command.globalOptionHelp { text += Command.row(syntax, explanation) }
    text += "\nSUBCOMMANDS:\n"
    for command in commands {
        let firstSentence = command.overview.firstSentence
        text += Command.row(command.name, firstSentence + ".")
    }
    text += "\n  See 'quotectl <subcommand> --help' for detailed help.\n"
    return text
}

func usageFailure(_ error: UsageError) -> ExitCode {
    Output.error(error.message)
    let hint = error.command.map { "quotectl \($0) --help" } ?? "quotectl --help"
    Output.standardError("Try '\(hint)' for more.\n")
    return .usage
}

@MainActor func runMain() -> ExitCode {
    signal(SIGPIPE, SIG_IGN)
    let words = Array(CommandLine.arguments.dropFirst())
    // The subcommand is the first word that is neither an option nor a global option's value.
    var commandIndex: Int?
    var index = 0
    while index < words.count {
        if Command.globalOptions.contains(words[index]) { index += 2; continue }
        if !words[index].hasPrefix("-") { commandIndex = index; break }
        index += 1
    }
    guard let commandIndex else {
        do {
            let arguments = try Arguments(words, options: Command.globalOptions, flags: Command.globalFlags, command: nil)
            if arguments.has("--version") { Output.line("quotectl \(version)"); return .success }
            Output.write(topHelp())
            return arguments.has("--help") ? .success : usageFailure(UsageError(message: "missing subcommand", command: nil))
        } catch {
            return usageFailure(error)
        }
    }
    let name = words[commandIndex]
    if name == "help" {
        let topic = words.dropFirst(commandIndex + 1).first
        if let topic, let command = commands.first(where: { $0.name == topic }) { Output.write(command.help) } else { Output.write(topHelp()) }
        return .success
    }
    guard let command = commands.first(where: { $0.name == name }) else {
        return usageFailure(UsageError(message: "unknown subcommand '\(name)'", command: nil))
    }
    var rest = words
    rest.remove(at: commandIndex)
    do {
        let arguments = try Arguments(rest, options: command.options.union(Command.globalOptions),
                                      flags: command.flags.union(Command.globalFlags), command: name)
        if arguments.has("--help") { Output.write(command.help); return .success }
        if arguments.has("--version") { Output.line("quotectl \(version)"); return .success }
        var context = Context(configOption: arguments.value("--config"), dbOption: arguments.value("--db"))
        return try command.run(arguments, &context)
    } catch let error as UsageError {
        return usageFailure(error)
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
exit(status.rawValue)
