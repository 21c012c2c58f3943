@testable import QuoteCommandLine
import Testing

enum Fruit: String, OptionValue { case apple, pear, fig }

/// The command-line parser on its own: every way a value can be written, and every mistake's message.
@Suite struct ArgumentsTests {
    let typedCount = TypedOption.positiveInt("count", short: "n", default: 1, help: { "N of them (default \($0))." })
    var count: Option { typedCount.option }
    let source = Option.value("source", "NAME", repeatable: true, help: "From NAME.")
    let json = Option.flag("json", help: "JSON.")
    let short = Option.flag("short", short: "s", help: "Short.")
    let equal = Option.flag("equal", short: "e", help: "Equal.")
    let typedFruit: TypedOption<Fruit?> = .choice("fruit", help: "A fruit.")
    var fruit: Option { typedFruit.option }
    var options: [Option] { [count, source, json, fruit, short, equal] }

    /// Short options combine as getopt's do (fortune takes `-se`).
    @Test(arguments: [["-se"], ["-es"], ["-s", "-e"]])
    func shortFlagsCombine(words: [String]) throws {
        let arguments = try Arguments(words, options: options, command: "x")
        #expect(arguments.has(short) && arguments.has(equal))
    }

    @Test(arguments: [["-sn3"], ["-sn", "3"], ["-esn3"]])
    func aCombinedValueTakesTheRestOrTheNextWord(words: [String]) throws {
        let arguments = try Arguments(words, options: options, command: "x")
        #expect(arguments.has(short) && arguments.value(count) == "3")
    }

    @Test(arguments: [["--count", "3"], ["--count=3"], ["-n", "3"], ["-n3"]])
    func aValueIsReadWhicheverWayItIsWritten(words: [String]) throws {
        #expect(try Arguments(words, options: options, command: "x").value(count) == "3")
    }

    @Test func repeatableOptionsCollectAndOthersRefuseASecondValue() throws {
        let arguments = try Arguments(["--source", "a", "--source=b", "word", "--", "--json"], options: options, command: "x")
        #expect(arguments.all(source) == ["a", "b"])
        #expect(arguments.positionals == ["word", "--json"], "after -- everything is a positional")
        #expect(!arguments.has(json))
        #expect(throws: UsageError(message: "--count given twice", command: "x")) {
            try Arguments(["-n", "1", "-n", "2"], options: options, command: "x")
        }
    }

    @Test(arguments: [
        (["--cout", "3"], "unknown option '--cout' (did you mean '--count'?)"),
        (["--json=yes"], "--json is a flag and takes no value (given 'yes'): write --json alone"),
        (["--count"], "--count needs a value (N)"),
        (["-x"], "unknown option '-x'"),
        (["-sx"], "unknown option '-x' (in '-sx')"),
    ])
    func mistakesAreNamed(words: [String], message: String) {
        do {
            _ = try Arguments(words, options: options, command: "x")
            Issue.record("accepted \(words)")
        } catch {
            #expect(error.message == message)
        }
    }

    @Test(arguments: ["0", "-1", "3.5", "99999999999999999999", "", "1e3"])
    func aPositiveWholeNumberIsNothingElse(text: String) throws {
        let arguments = try Arguments(["--count", text], options: options, command: "x")
        #expect(throws: UsageError(message: "--count takes a positive whole number, not '\(text)'", command: "x")) {
            try arguments.value(typedCount)
        }
    }

    @Test func theLargestWholeNumberIsAccepted() throws {
        #expect(try Arguments(["-n", "9223372036854775807"], options: options, command: "x").value(typedCount) == Int.max)
    }

    /// A typed value: its choices, placeholder and message come from the enum alone.
    @Test func aTypedValueIsParsedInAnyCaseAndItsChoicesAreDerived() throws {
        #expect(fruit.valueName == "apple|pear|fig")
        #expect(fruit.completion == .choices(["apple", "pear", "fig"]))
        #expect(try Arguments(["--fruit", "PEAR"], options: options, command: "x").value(typedFruit) == .pear)
        let wrong = try Arguments(["--fruit", "kiwi"], options: options, command: "x")
        #expect(throws: UsageError(message: "--fruit takes apple, pear or fig, not 'kiwi'", command: "x")) {
            try wrong.value(typedFruit)
        }
        #expect(try Arguments([], options: options, command: "x").value(typedFruit) == nil)
    }

    /// The default the code falls back on is the one the help names.
    @Test func aDefaultIsReturnedWhenNotGivenAndNamedInTheHelp() throws {
        let none = try Arguments([], options: options, command: "x")
        #expect(try none.value(typedCount) == 1)
        #expect(try none.given(typedCount) == nil, "given: only what the command line says")
        #expect(typedCount.defaultValue == 1)
        #expect(count.help.english == "N of them (default 1).")
        #expect(try Arguments(["-n4"], options: options, command: "x").given(typedCount) == 4)
        let limit = TypedOption.positiveInt("limit", default: 10, help: { "At most N results (default \($0))." })
        #expect(limit.option.help.english == "At most N results (default 10).")
        let sized = TypedOption.choice("fruit", default: Fruit.fig, help: { "Which (default \($0))." })
        #expect(sized.option.help.english == "Which (default fig).")
        #expect(try Arguments([], options: [sized.option], command: "x").value(sized) == .fig)
    }

    @Test func anOptionalNumberIsNilWhenNotGiven() throws {
        let maxLength = TypedOption.positiveInt("max-length", help: "At most N characters.")
        #expect(try Arguments([], options: [maxLength.option], command: "x").value(maxLength) == nil)
        #expect(try Arguments(["--max-length=7"], options: [maxLength.option], command: "x").value(maxLength) == 7)
        #expect(maxLength.option.help == "At most N characters.")
    }

    @Test func aRequiredOptionIsMissingByNameAndTextIsTakenAsGiven() throws {
        let name = TypedOption.requiredText("name", "NAME", help: "The name.")
        let author = TypedOption.text("author", "TEXT", help: "By.")
        #expect(name.option.required && name.option.usage == "--name NAME")
        #expect(throws: UsageError(message: "missing --name NAME", command: "x")) {
            try Arguments([], options: [name.option, author.option], command: "x").value(name)
        }
        let given = try Arguments(["--name", "n", "--author", "A b"], options: [name.option, author.option], command: "x")
        #expect(try given.value(name) == "n")
        #expect(given.value(author) == "A b")
        let choice = TypedOption<Fruit>.requiredChoice("fruit", help: "A fruit.")
        #expect(throws: UsageError(message: "missing --fruit apple|pear|fig", command: "x")) {
            try Arguments([], options: [choice.option], command: "x").value(choice)
        }
    }

    /// A value with its own parser keeps its own message.
    @Test func aCustomParserNamesWhatItExpects() throws {
        let even = TypedOption<Int>({ .value("even", "N", help: $0) }, absent: .value(2), describedAs: "2",
                                    expected: "an even number", help: { "Even (default \($0))." },
                                    parse: { Int($0).flatMap { $0 % 2 == 0 ? $0 : nil } })
        #expect(even.option.help.english == "Even (default 2).")
        #expect(try Arguments(["--even", "8"], options: [even.option], command: "x").value(even) == 8)
        #expect(throws: UsageError(message: "--even takes an even number, not '3'", command: "x")) {
            try Arguments(["--even", "3"], options: [even.option], command: "x").value(even)
        }
    }

    @Test func suggestionsFindTyposAndUniquePrefixes() {
        #expect(Suggestion.closest(to: "randm", among: ["random", "search", "today"]) == "random")
        #expect(Suggestion.closest(to: "sea", among: ["random", "search", "today"]) == "search")
        #expect(Suggestion.closest(to: "xyzzy", among: ["random", "search", "today"]) == nil)
    }

    @Test func helpRowsWrapBetweenWords() {
        let row = HelpText.row("--count N", String(repeating: "word ", count: 40), width: 60)
        for line in row.split(separator: "\n") { #expect(line.count <= 60, "\(line)") }
        #expect(!row.contains("wor\n"))
    }
}
