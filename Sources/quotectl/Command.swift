import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteStore

/// One subcommand: its help text, the options it takes, and what it does.
struct Command: Sendable {
    let name: String
    let overview: String
    let usage: String
    /// (syntax, explanation) pairs for the OPTIONS section.
    let optionHelp: [(String, String)]
    /// Options that take a value, and flags, besides the global ones.
    let options: Set<String>
    let flags: Set<String>
    let run: @Sendable (Arguments, inout Context) throws -> ExitCode

    var help: String {
        var text = "OVERVIEW: \(overview)\n\nUSAGE: quotectl \(usage)\n\nOPTIONS:\n"
        for (syntax, explanation) in optionHelp + Command.globalOptionHelp {
            text += Command.row(syntax, explanation)
        }
        return text
    }

    static let globalOptions: Set<String> = ["--db", "--config"]
    static let globalFlags: Set<String> = ["--help", "--version"]

    static let globalOptionHelp: [(String, String)] = [
        ("--db PATH", "The store to read (env QUOTED_DB; default: [store] path of the configuration, /var/lib/quoted/quotes.db if readable, else $XDG_DATA_HOME/quoted/quotes.db)."),
        ("--config PATH", "The daemon's configuration, for the store and the control socket (env QUOTED_CONFIG)."),
        ("--version", "Show the version."),
        ("-h, --help", "Show help information."),
    ]

    /// "  --source NAME           Only quotes from NAME." with wrapping at 100 columns.
    static func row(_ syntax: String, _ explanation: String) -> String {
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
                if column + 1 + word.count > 100 {
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

/// What every command may need: where the store is, opened on first use.
struct Context {
    let configOption: String?
    let dbOption: String?
    private var openStore: Store?
    private var loadedConfiguration: Configuration??

    init(configOption: String?, dbOption: String?) {
        self.configOption = configOption
        self.dbOption = dbOption
    }

    /// The daemon's configuration: nil when there is none. A file the user named must
    /// be valid; one found by itself is only a hint (quotectl random must still answer).
    mutating func configuration() throws(ConfigError) -> Configuration? {
        if let loadedConfiguration { return loadedConfiguration }
        var result: Configuration?
        if let location = Locations.configuration(option: configOption) {
            do {
                result = try Configuration.load(path: location.path)
            } catch {
                if location.explicit { throw error }
            }
        }
        loadedConfiguration = .some(result)
        return result
    }

    /// The store's path; the configuration is read only when --db and $QUOTED_DB are silent.
    mutating func storePath() throws(ConfigError) -> String {
        // The configuration is read only when neither --db nor $QUOTED_DB settles it.
        let configured = Locations.storeNeedsConfiguration(option: dbOption) ? try configuration()?.storePath : nil
        return Locations.store(option: dbOption, configured: configured, writing: false)
    }

    mutating func store(_ access: Store.Access = .read) throws -> Store {
        if let openStore { return openStore }
        let path = try storePath()
        let store = try Store(path: path, access: access)
        openStore = store
        return store
    }
}

extension String {
    /// Up to the first ". " (a period inside a word, as in custom.NAME, does not end it), without the period.
    var firstSentence: String {
        var previous: Swift.Character?
        for index in indices {
            if previous == ".", self[index] == " " { return String(self[..<self.index(before: index)]) }
            previous = self[index]
        }
        return hasSuffix(".") ? String(dropLast()) : self
    }
}
