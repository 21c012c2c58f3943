/// `--help`, from the specs: an overview, a usage line, the options (each with its short
/// alias and value name), and for the program the list of subcommands.
public enum HelpText {
    public static func program(_ program: ProgramSpec) -> String {
        var text = "OVERVIEW: \(program.overview)\n\nUSAGE: \(program.name) [<options>] <subcommand> [<arguments>]\n\nOPTIONS:\n"
        for option in program.globalOptions where !option.hidden { text += row(option.syntax, option.help) }
        text += "\nSUBCOMMANDS:\n"
        for command in program.visibleCommands {
            text += row(command.name + (command.name == program.defaultCommand ? " (default)" : ""), command.summary + ".")
        }
        text += "\n  See '\(program.name) <subcommand> --help' for detailed help, or 'man \(program.name)'.\n"
        return text
    }

    public static func command(_ command: CommandSpec, in program: ProgramSpec) -> String {
        var text = "OVERVIEW: \(command.overview)\n\nUSAGE: \(program.name) \(command.usage)\n"
        if !command.positionals.isEmpty {
            text += "\nARGUMENTS:\n"
            for positional in command.positionals { text += row(positional.name, positional.help) }
        }
        text += "\nOPTIONS:\n"
        for option in command.options + program.globalOptions where !option.hidden { text += row(option.syntax, option.help) }
        return text
    }

    /// "  --source NAME           Only quotes from NAME." with the explanation wrapped at 80 columns.
    public static func row(_ syntax: String, _ explanation: String, width: Int = 80) -> String {
        let indent = 26
        var text = "  " + syntax
        if text.count >= indent {
            text += "\n" + String(repeating: " ", count: indent)
        } else {
            text += String(repeating: " ", count: indent - text.count)
        }
        var column = indent
        for (position, word) in explanation.split(separator: " ").enumerated() {
            if position > 0 {
                if column + 1 + word.count > width {
                    text += "\n" + String(repeating: " ", count: indent)
                    column = indent
                } else {
                    text += " "
                    column += 1
                }
            }
            text += word
            column += word.count
        }
        return text + "\n"
    }
}
