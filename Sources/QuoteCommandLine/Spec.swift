import QuoteBase
/// The command line, declared once. Each option and argument is ONE value of these types;
/// parsing, usage lines, `--help`, the man pages, the shell completions and "did you mean"
/// are all derived from them.
public struct Option: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case flag
        /// Takes a value, written after it (`--source NAME`, `--source=NAME`, `-n 3`, `-n3`).
        case value(name: String)
    }

    /// What a shell offers for the option's value (or an argument).
    public enum Completion: Sendable, Hashable {
        case none
        case file
        /// Source names known to the store (asked of `quotectl __complete sources`: no network).
        case sourceName
        /// Other words the program knows (asked of `<program> __complete KIND`): list names,
        /// characters, productions, categories. Words may hold spaces.
        case asked(String)
        case choices([String])
    }

    /// Without dashes: "source".
    public let long: String
    public let short: Character?
    public let kind: Kind
    public let repeatable: Bool
    public let help: Message
    public let completion: Completion
    /// Parsed and honoured, but left out of help, manuals and completions.
    public let hidden: Bool
    /// The command cannot run without it: usage shows it without brackets, and
    /// reading it (`TypedOption`) says it is missing.
    public var required = false

    public static func flag(_ long: String, short: Character? = nil, hidden: Bool = false, help: Message) -> Option {
        Option(long: long, short: short, kind: .flag, repeatable: false, help: help, completion: .none, hidden: hidden)
    }

    public static func value(_ long: String, _ valueName: String, short: Character? = nil, repeatable: Bool = false,
                             completion: Completion = .none, hidden: Bool = false, required: Bool = false, help: Message) -> Option {
        var option = Option(long: long, short: short, kind: .value(name: valueName), repeatable: repeatable, help: help,
                            completion: completion, hidden: hidden)
        option.required = required
        return option
    }

    public var spelling: String { "--" + long }
    public var valueName: String? {
        if case .value(let name) = kind { return name }
        return nil
    }

    /// "-n, --count N" as help lists it.
    public var syntax: String {
        (short.map { "-\($0), " } ?? "") + spelling + (valueName.map { " " + $0 } ?? "")
    }

    /// "[--count N]" as a usage line shows it.
    public var usage: String {
        let body = spelling + (valueName.map { " " + $0 } ?? "")
        return (required ? body : "[" + body + "]") + (repeatable ? "..." : "")
    }
}

/// A positional argument.
public struct Positional: Sendable, Hashable {
    public let name: String
    public let help: Message
    public let optional: Bool
    public let completion: Option.Completion

    public init(_ name: String, optional: Bool = false, completion: Option.Completion = .none, help: Message) {
        self.name = name
        self.help = help
        self.optional = optional
        self.completion = completion
    }
}

/// One subcommand.
public struct CommandSpec: Sendable {
    public let name: String
    /// One sentence for the list of subcommands, then more for its own help.
    public let overview: Message
    public let positionals: [Positional]
    public let options: [Option]
    public let hidden: Bool

    public init(name: String, overview: Message, positionals: [Positional] = [], options: [Option], hidden: Bool = false) {
        self.name = name
        self.overview = overview
        self.positionals = positionals
        self.options = options
        self.hidden = hidden
    }

    public var usage: String {
        ([name] + positionals.map { $0.optional ? "[\($0.name)]" : $0.name } + options.filter { !$0.hidden }.map(\.usage))
            .joined(separator: " ")
    }

    /// The first sentence of the overview in the user's language, for help's list of subcommands.
    public var summary: String { Self.firstSentence(of: overview.text) }

    /// The first sentence of the English overview: completion scripts are generated once, at
    /// install time, and must not take the installer's language.
    public var englishSummary: String { Self.firstSentence(of: overview.english) }

    /// The first sentence (a period inside a word, as in custom.NAME, does not end it).
    static func firstSentence(of overview: String) -> String {
        var previous: Character?
        for index in overview.indices {
            if previous == ".", overview[index] == " " { return String(overview[..<overview.index(before: index)]) }
            previous = overview[index]
        }
        return overview.hasSuffix(".") ? String(overview.dropLast()) : overview
    }
}

/// A whole program: its global options and its subcommands.
public struct ProgramSpec: Sendable {
    public let name: String
    public let overview: Message
    public let globalOptions: [Option]
    public let commands: [CommandSpec]
    /// The subcommand run when none is named (quoted runs the daemon), if any.
    public let defaultCommand: String?

    public init(name: String, overview: Message, globalOptions: [Option], commands: [CommandSpec], defaultCommand: String? = nil) {
        self.name = name
        self.overview = overview
        self.globalOptions = globalOptions
        self.commands = commands
        self.defaultCommand = defaultCommand
    }

    public func command(named name: String) -> CommandSpec? { commands.first { $0.name == name } }

    public var visibleCommands: [CommandSpec] { commands.filter { !$0.hidden } }
}
