import QuoteBase
/// A usage error: printed on stderr with a hint, exit 64 (EX_USAGE).
public struct UsageError: Error, Sendable, Equatable {
    public let message: String
    public let command: String?

    public init(message: String, command: String?) {
        self.message = message
        self.command = command
    }

    /// What a usage mistake prints on stderr: the message, then where help is.
    public func lines(program: String) -> String {
        let help = program + " " + (command.map { $0 + " " } ?? "") + "--help"
        // TRANSLATORS: the command always ends in --help ("quotectl random --help").
        return "\(program): \(message)\n" + tr("Try '\(help)' for more.") + "\n"
    }
}

/// The words of a command line, parsed against a spec (no Foundation, no packages):
/// `--name value`, `--name=value`, `-n value`, `-nvalue`, flags, positionals, and `--` to
/// end options. Unknown options and subcommands get a "did you mean".
public struct Arguments: Sendable {
    // A command line holds a few options: arrays searched in order, not a dictionary and a set,
    // whose storage types' metadata (with their Hashable conformance looked up by a scan of every
    // conformance in the binary) would be made at run time on every start (docs/benchmarks.md).
    private var values: [(option: String, values: [String])] = []
    private var flags: [String] = []
    public private(set) var positionals: [String] = []
    public let command: String?

    public init(_ words: [String], options: [Option], command: String?) throws(UsageError) {
        self.command = command
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            let (option, attached) = try word.hasPrefix("--") ? longOption(word, among: options) : shortOptions(word, among: options)
            switch option.kind {
            case .flag:
                if let attached {
                    throw fail(tr("\(option.spelling) is a flag and takes no value (given '\(attached)'): write \(option.spelling) alone"))
                }
                try record(option, value: nil)
            case .value(let valueName):
                let value: String
                if let attached {
                    value = attached
                } else if index < words.count {
                    value = words[index]
                    index += 1
                } else {
                    throw fail(tr("\(option.spelling) needs a value (\(valueName))"))
                }
                try record(option, value: value)
            }
        }
    }

    /// `--name` or `--name=value`: the option, and the value attached to it.
    private func longOption(_ word: String, among options: [Option]) throws(UsageError) -> (Option, attached: String?) {
        var name = word.dropFirst(2)
        var attached: String?
        if let equals = name.firstIndex(of: "=") {
            attached = String(name[name.index(after: equals)...])
            name = name[..<equals]
        }
        guard let found = options.first(where: { $0.long == name }) else {
            throw fail(tr("unknown option '--\(String(name))'") + Suggestion.didYouMean(String(name), among: options.filter { !$0.hidden }.map(\.long), prefix: "--"))
        }
        return (found, attached)
    }

    /// Short options combine as getopt's do: `-se` is -s -e, and a letter that takes a value takes
    /// the rest of the word (`-n3`, `-sn3`) or the next word (`-sn 3`). Records the flags before
    /// the last letter; returns the last letter's option, and the value attached to it.
    private mutating func shortOptions(_ word: String, among options: [Option]) throws(UsageError) -> (Option, attached: String?) {
        var letters = word.dropFirst()
        while true {
            let letter = letters.removeFirst()
            guard let found = options.first(where: { $0.short == letter }) else {
                throw fail(word.count > 2 ? tr("unknown option '-\(letter)' (in '\(word)')") : tr("unknown option '-\(letter)'"))
            }
            if found.valueName != nil || letters.isEmpty {
                return (found, letters.isEmpty ? nil : String(letters))
            }
            try record(found, value: nil)
        }
    }

    private func fail(_ message: String) -> UsageError { UsageError(message: message, command: command) }

    /// A flag seen, or an option's value.
    private mutating func record(_ option: Option, value: String?) throws(UsageError) {
        guard let value else {
            if !flags.contains(option.long) { flags.append(option.long) }
            return
        }
        guard let index = values.firstIndex(where: { $0.option == option.long }) else {
            values.append((option.long, [value]))
            return
        }
        if !option.repeatable { throw fail(tr("\(option.spelling) given twice")) }
        values[index].values.append(value)
    }

    private func given(_ option: Option) -> [String]? { values.first { $0.option == option.long }?.values }

    public func value(_ option: Option) -> String? { given(option)?.last }

    /// "missing --name NAME".
    @usableFromInline
    func missing(_ option: Option) -> UsageError {
        UsageError(message: tr("missing \(option.spelling + (option.valueName.map { " " + $0 } ?? ""))"), command: command)
    }

    public func all(_ option: Option) -> [String] { given(option) ?? [] }

    public func has(_ option: Option) -> Bool { flags.contains(option.long) || given(option) != nil }

    /// The positionals a command declares: required ones must be there, no extra ones.
    public func positionals(for spec: CommandSpec) throws(UsageError) -> [String] {
        let required = spec.positionals.filter { !$0.optional }.count
        if positionals.count < required {
            throw UsageError(message: tr("missing \(spec.positionals[positionals.count].name)"), command: command)
        }
        if positionals.count > spec.positionals.count {
            throw UsageError(message: tr("unexpected argument '\(positionals[spec.positionals.count])'"), command: command)
        }
        return positionals
    }
}

/// "did you mean" for a mistyped name: the closest candidate within two edits (or the one
/// the typo is a prefix of).
public enum Suggestion {
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word, $0)) }
        if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, min(2, word.count / 3)) { return best.0 }
        let prefixed = candidates.filter { $0.hasPrefix(word) }
        return prefixed.count == 1 && word.count >= 2 ? prefixed[0] : nil
    }

    /// " (did you mean '--json'?)", or "".
    public static func didYouMean(_ word: String, among candidates: [String], prefix: String = "") -> String {
        closest(to: word, among: candidates).map { " " + tr("(did you mean '\(prefix + $0)'?)") } ?? ""
    }

    /// Damerau–Levenshtein (with adjacent transpositions), on characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1) }
            }
        }
        return table[a.count][b.count]
    }
}
