/// A usage error: printed on stderr with a hint, exit 64 (EX_USAGE).
public struct UsageError: Error, Sendable {
    public let message: String
    public let command: String?

    public init(message: String, command: String?) {
        self.message = message
        self.command = command
    }
}

/// Hand-written argument parsing (no Foundation, no packages): options in
/// `--name value` or `--name=value` form, flags, positionals, and `--` to end options.
public struct Arguments: Sendable {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    public private(set) var positionals: [String] = []

    /// Parses `words` for a command that accepts `options` (taking a value) and `flags`.
    public init(_ words: [String], options: Set<String>, flags allowedFlags: Set<String>, command: String?) throws(UsageError) {
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
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            if name == "-h" { name = "--help" }
            if options.contains(name) {
                if let inlineValue {
                    values[name, default: []].append(inlineValue)
                } else if index < words.count {
                    values[name, default: []].append(words[index])
                    index += 1
                } else {
                    throw UsageError(message: "\(name) needs a value", command: command)
                }
            } else if allowedFlags.contains(name), inlineValue == nil {
                flags.insert(name)
            } else {
                throw UsageError(message: "unknown option '\(name)'", command: command)
            }
        }
    }

    public func value(_ name: String) -> String? { values[name]?.last }

    public func all(_ name: String) -> [String] { values[name] ?? [] }

    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A positive whole number, or a usage error naming the option.
    public func positiveInt(_ name: String, command: String) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), number > 0 else {
            throw UsageError(message: "\(name) takes a positive whole number, not '\(text)'", command: command)
        }
        return number
    }

    /// Exactly `count` positionals, named in the message when missing or extra.
    public func requirePositionals(_ names: [String], command: String) throws(UsageError) -> [String] {
        if positionals.count < names.count {
            throw UsageError(message: "missing \(names[positionals.count])", command: command)
        }
        if positionals.count > names.count {
            throw UsageError(message: "unexpected argument '\(positionals[names.count])'", command: command)
        }
        return positionals
    }
}
