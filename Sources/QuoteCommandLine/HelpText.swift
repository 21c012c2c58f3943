import QuoteBase
import QuoteText
/// `--help`, from the specs: an overview, a usage line, the options (each with its short
/// alias and value name), and for the program the list of subcommands — wrapped between words
/// at `width` (a terminal's columns; 80 when piped), never mid-word. Widths are display widths:
/// a Hangul syllable takes two columns, so Korean help wraps where it would pass the edge.
public enum HelpText {
    public static func program(_ program: ProgramSpec, width: Int = 80) -> String {
        var text = paragraph(tr("OVERVIEW: \(program.overview.text)"), width: width, indent: indent(tr("OVERVIEW: \(mark)")))
        text += "\n" + paragraph(tr("USAGE: \(program.name) [<options>] <subcommand> [<arguments>]"), width: width,
                                 indent: indent(tr("USAGE: \(mark) [<options>] <subcommand> [<arguments>]"))) + "\n" + tr("OPTIONS:") + "\n"
        for option in program.globalOptions where !option.hidden { text += row(option.syntax, option.help.text, width: width) }
        text += "\n" + tr("SUBCOMMANDS:") + "\n"
        for command in program.visibleCommands {
            text += row(command.name + (command.name == program.defaultCommand ? " " + tr("(default)") : ""), command.summary + ".", width: width)
        }
        text += "\n" + paragraph("  " + tr("See '\(program.name) <subcommand> --help' for detailed help, or 'man \(program.name)'."), width: width, indent: 2)
        return text
    }

    public static func command(_ command: CommandSpec, in program: ProgramSpec, width: Int = 80) -> String {
        var text = paragraph(tr("OVERVIEW: \(command.overview.text)"), width: width, indent: indent(tr("OVERVIEW: \(mark)")))
        text += "\n" + paragraph(tr("USAGE: \(program.name) \(command.usage)"), width: width, indent: indent(tr("USAGE: \(mark) \(mark)")))
        if !command.positionals.isEmpty {
            text += "\n" + tr("ARGUMENTS:") + "\n"
            for positional in command.positionals { text += row(positional.name, positional.help.text, width: width) }
        }
        text += "\n" + tr("OPTIONS:") + "\n"
        for option in command.options + program.globalOptions where !option.hidden { text += row(option.syntax, option.help.text, width: width) }
        return text
    }

    /// "  --source NAME           Only quotes from NAME." with the explanation wrapped at `width`
    /// (below 50 columns, the explanation goes under the option, indented less).
    public static func row(_ syntax: String, _ explanation: String, width: Int = 80) -> String {
        let indent = width < 50 ? 6 : 26
        var text = "  " + syntax
        let columns = DisplayWidth.of(text)
        if columns >= indent {
            text += "\n" + String(repeating: " ", count: indent)
        } else {
            text += String(repeating: " ", count: indent - columns)
        }
        return text + wrapped(explanation, width: width, indent: indent, column: indent) + "\n"
    }

    /// Where a value goes in a label's message, to measure the label by.
    static let mark = "\u{1}"

    /// The column the later lines of "OVERVIEW: …" start at: the display width of the label
    /// before its value, as the language words it ("OVERVIEW: " 10 columns, "개요: " 6).
    static func indent(_ marked: String) -> Int {
        DisplayWidth.of(marked.prefix { $0 != "\u{1}" })
    }

    /// A paragraph wrapped at `width`, later lines indented by `indent`.
    static func paragraph(_ text: String, width: Int, indent: Int) -> String {
        wrapped(text, width: width, indent: indent, column: 0) + "\n"
    }

    /// `text`'s words from `column` on, a new line (indented) before a word that would pass
    /// `width`. A word longer than a line stays whole on a line of its own.
    static func wrapped(_ text: String, width: Int, indent: Int, column start: Int) -> String {
        var out = ""
        var column = start
        for (position, word) in text.split(separator: " ").enumerated() {
            let columns = DisplayWidth.of(word)
            if position > 0 {
                if column + 1 + columns > width {
                    out += "\n" + String(repeating: " ", count: indent)
                    column = indent
                } else {
                    out += " "
                    column += 1
                }
            }
            out += word
            column += columns
        }
        return out
    }
}
