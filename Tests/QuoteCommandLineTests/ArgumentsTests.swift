@testable import QuoteCommandLine
import Testing

enum Fruit: String, OptionValue { case apple, pear, fig }

/// The command-line parser on its own: every way a value can be written, and every mistake's message.
@Suite struct ArgumentsTests {
    let count = Option.value("count", "N", short: "n", help: "N of them.")
    let source = Option.value("source", "NAME", repeatable: true, help: "From NAME.")
    let json = Option.flag("json", help: "JSON.")
    let short = Option.flag("short", short: "s", help: "Short.")
    let equal = Option.flag("equal", short: "e", help: "Equal.")
    let fruit = Option.choice("fruit", Fruit.self, help: "A fruit.")
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
        #expect(throws: UsageError.self) { try arguments.positiveInt(count) }
    }

    @Test func theLargestWholeNumberIsAccepted() throws {
        #expect(try Arguments(["-n", "9223372036854775807"], options: options, command: "x").positiveInt(count) == Int.max)
    }

    /// A typed value: its choices, placeholder and message come from the enum alone.
    @Test func aTypedValueIsParsedInAnyCaseAndItsChoicesAreDerived() throws {
        #expect(fruit.valueName == "apple|pear|fig")
        #expect(fruit.completion == .choices(["apple", "pear", "fig"]))
        #expect(try Arguments(["--fruit", "PEAR"], options: options, command: "x").value(fruit, as: Fruit.self) == .pear)
        let wrong = try Arguments(["--fruit", "kiwi"], options: options, command: "x")
        #expect(throws: UsageError(message: "--fruit takes apple, pear or fig, not 'kiwi'", command: "x")) {
            try wrong.value(fruit, as: Fruit.self)
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
