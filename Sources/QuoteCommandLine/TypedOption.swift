import QuoteBase
/// An option declared with the type of its value and its default, once: the value is parsed
/// and checked where it is read (`arguments.value(Options.limit)` is an `Int`), and the help's
/// "(default …)" is written from the same default the code falls back on, so the two cannot
/// drift apart. `option` stays the untyped declaration that parsing, help, the man pages and
/// the completions read.
public struct TypedOption<Value: Sendable>: Sendable {
    /// What the program does when the option is not given.
    public enum Absent: Sendable {
        /// Falls back on this value.
        case value(Value)
        /// Cannot run without it: "missing --name NAME".
        case missing
    }

    public let option: Option
    public let absent: Absent
    /// "a positive whole number", "ko or en": what the usage error says the option takes.
    public var expected: String { expectedText() }
    /// Worded only when a usage error needs it: a choice's wording is a generic call into this
    /// module, which a program that declares its options at start would otherwise pay every time.
    let expectedText: @Sendable () -> String
    /// The value a word stands for, or nil when it stands for none (a usage error).
    @usableFromInline let parse: @Sendable (String) -> Value?

    /// `help` receives the default as the help shows it (`describedAs`), to place where it reads well.
    public init(_ option: (_ help: Message) -> Option, absent: Absent, describedAs defaultText: String? = nil,
                expected: @autoclosure @escaping @Sendable () -> String, help: (_ defaultText: String) -> Message,
                parse: @escaping @Sendable (String) -> Value?) {
        self.option = option(help(defaultText ?? ""))
        self.absent = absent
        self.expectedText = expected
        self.parse = parse
    }

    /// The value the program falls back on (`--limit`'s 10), or nil for one it cannot run without.
    public var defaultValue: Value? {
        if case .value(let value) = absent { return value }
        return nil
    }
}

extension TypedOption {
    /// An option taking any text, nil when not given.
    public static func text(_ long: String, _ valueName: String, short: Character? = nil, completion: Option.Completion = .none,
                            hidden: Bool = false, help: Message) -> TypedOption<String?> where Value == String? {
        TypedOption<String?>({ .value(long, valueName, short: short, completion: completion, hidden: hidden, help: $0) },
                             absent: .value(nil), expected: tr("text"), help: { _ in help }, parse: { $0 })
    }

    /// An option taking any text that the command cannot run without.
    public static func requiredText(_ long: String, _ valueName: String, short: Character? = nil,
                                    completion: Option.Completion = .none, help: Message) -> TypedOption<String> where Value == String {
        TypedOption<String>({ .value(long, valueName, short: short, completion: completion, required: true, help: $0) },
                            absent: .missing, expected: tr("text"), help: { _ in help }, parse: { $0 })
    }

    /// A positive whole number, nil when not given.
    public static func positiveInt(_ long: String, _ valueName: String = "N", short: Character? = nil,
                                   help: Message) -> TypedOption<Int?> where Value == Int? {
        TypedOption<Int?>({ .value(long, valueName, short: short, help: $0) }, absent: .value(nil),
                          expected: positiveWholeNumber, help: { _ in help }, parse: { text in positive(text).map { .some($0) } })
    }

    /// A positive whole number with a default; `help` is given the default to name.
    public static func positiveInt(_ long: String, _ valueName: String = "N", short: Character? = nil, default value: Int,
                                   help: (_ defaultText: String) -> Message) -> TypedOption<Int> where Value == Int {
        TypedOption<Int>({ .value(long, valueName, short: short, help: $0) }, absent: .value(value), describedAs: String(value),
                         expected: positiveWholeNumber, help: help, parse: positive)
    }
}

extension TypedOption where Value == Int {
    /// A positive whole number with a default its help does not name.
    public static func positiveInt(_ long: String, _ valueName: String = "N", short: Character? = nil, default value: Int,
                                   help: Message) -> TypedOption<Int> {
        positiveInt(long, valueName, short: short, default: value, help: { _ in help })
    }
}

private var positiveWholeNumber: String { tr("a positive whole number") }

private func positive(_ text: String) -> Int? {
    guard let number = Int(text), number > 0 else { return nil }
    return number
}

extension TypedOption where Value: OptionValue {
    /// One of `Value`'s cases, with a default (named by its case's name to `help`).
    @inlinable public static func choice(_ long: String, short: Character? = nil, hidden: Bool = false, default value: Value,
                                         help: (_ defaultText: String) -> Message) -> TypedOption<Value> {
        TypedOption<Value>({ .choice(long, Value.self, short: short, hidden: hidden, help: $0) }, absent: .value(value),
                           describedAs: value.rawValue, expected: Value.choicesText, help: help, parse: Value.named)
    }

    /// One of `Value`'s cases, with a default its help does not name.
    @inlinable public static func choice(_ long: String, short: Character? = nil, hidden: Bool = false, default value: Value,
                                         help: Message) -> TypedOption<Value> {
        choice(long, short: short, hidden: hidden, default: value, help: { _ in help })
    }

    /// One of `Value`'s cases, which the command cannot run without.
    @inlinable public static func requiredChoice(_ long: String, short: Character? = nil, help: Message) -> TypedOption<Value> {
        TypedOption<Value>({ .choice(long, Value.self, short: short, required: true, help: $0) }, absent: .missing,
                           expected: Value.choicesText, help: { _ in help }, parse: Value.named)
    }
}

extension TypedOption {
    /// One of `Choice`'s cases, nil when not given.
    @inlinable public static func choice<Choice: OptionValue>(_ long: String, short: Character? = nil, hidden: Bool = false,
                                                              help: Message) -> TypedOption<Choice?> where Value == Choice? {
        TypedOption<Choice?>({ .choice(long, Choice.self, short: short, hidden: hidden, help: $0) }, absent: .value(nil),
                             expected: Choice.choicesText, help: { _ in help }, parse: { Choice.named($0).map { .some($0) } })
    }
}

extension OptionValue {
    /// The case a word names, in any case: `--quote krw` is KRW.
    public static func named(_ text: String) -> Self? {
        Self(rawValue: text) ?? allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() })
    }
}

extension Arguments {
    /// The option's value as declared: parsed, its default when not given, or a usage error for
    /// a word that is not one ("--limit takes a positive whole number, not 'x'") or a missing
    /// required option ("missing --name NAME").
    ///
    /// Inlinable, so that each command's module specialises it for its options' types: called
    /// generically, every option read built its `TypedOption`'s metadata at run time, on every
    /// start (docs/benchmarks.md).
    @inlinable
    public func value<Value>(_ typed: TypedOption<Value>) throws(UsageError) -> Value {
        guard let text = value(typed.option) else {
            switch typed.absent {
            case .value(let value): return value
            case .missing: throw missing(typed.option)
            }
        }
        guard let parsed = typed.parse(text) else { throw notOne(typed.option, expected: typed.expected, text: text) }
        return parsed
    }

    /// "--limit takes a positive whole number, not 'x'".
    @usableFromInline
    func notOne(_ option: Option, expected: String, text: String) -> UsageError {
        UsageError(message: tr("\(option.spelling) takes \(expected), not '\(text)'"), command: command)
    }

    /// The option's value when given, nil when not: for a default something else may override
    /// (`--log-level` before the configuration's `log_level`, before the default).
    @inlinable
    public func given<Value>(_ typed: TypedOption<Value>) throws(UsageError) -> Value? {
        guard has(typed.option) else { return nil }
        return try value(typed)
    }

    /// Text, as given: there is nothing to parse, so nothing to throw.
    public func value(_ typed: TypedOption<String?>) -> String? { value(typed.option) }

    @inlinable
    public func has<Value>(_ typed: TypedOption<Value>) -> Bool { has(typed.option) }
}
