import QuoteCommandLine
@testable import QuotectlCommands
import Testing
import TestSupport

/// fortune's shares ("30% happiness 70% custom.stoics"): what the words parse into, the weights
/// they give the sources that match, and how a draw follows the weights.
@Suite struct SourceSharesTests {
    @Test func sourcesWithoutAShareSplitWhatIsLeftEqually() throws {
        let shares = try SourceShares.parse(["30%", "happiness", "builtin", "custom.zen"])
        #expect(shares.entries.map { $0.source } == ["happiness", "builtin", "custom.zen"])
        #expect(shares.entries.map { $0.percent } == [30, nil, nil])
        let weights = try shares.weights(available: ["happiness", "builtin", "custom.zen"], equal: false)
        #expect(weights.map { $0.0 } == ["happiness", "builtin", "custom.zen"])
        #expect(weights.map { $0.1 } == [30, 35, 35])
    }

    @Test func noWordsIsNoShares() throws {
        let shares = try SourceShares.parse([])
        #expect(shares.isEmpty)
        // -e: every source with a match weighs the same, in the order of their names.
        let weights = try shares.weights(available: ["happiness", "builtin"], equal: true)
        #expect(weights.map { $0.0 } == ["builtin", "happiness"])
        #expect(weights.map { $0.1 } == [1, 1])
    }

    /// "custom" stands for every list; a source with a 0% share, or none of what the
    /// percentages left, is never drawn.
    @Test func customStandsForEveryListAndZeroSharesAreLeftOut() throws {
        let lists = try SourceShares.parse(["custom"]).weights(available: ["custom", "builtin"], equal: false)
        #expect(lists.map { $0.0 } == ["custom"] && lists.map { $0.1 } == [100])
        let zero = try SourceShares.parse(["0%", "builtin", "happiness"]).weights(available: ["builtin", "happiness"], equal: false)
        #expect(zero.map { $0.0 } == ["happiness"] && zero.map { $0.1 } == [100])
        let nothingLeft = try SourceShares.parse(["100%", "builtin", "happiness"]).weights(available: ["builtin", "happiness"], equal: false)
        #expect(nothingLeft.map { $0.0 } == ["builtin"])
    }

    @Test func aNamedSourceWithoutAMatchIsNoMatch() throws {
        let shares = try SourceShares.parse(["50%", "weather", "builtin"])
        let error = #expect(throws: NoMatch.self) { try shares.weights(available: ["builtin"], equal: false) }
        #expect(error?.message == "no quote from weather matches")
    }

    @Test(arguments: [
        (["101%", "builtin"], "'101%' is not a share: write N% before a source (0% to 100%)"),
        (["-5%", "builtin"], "'-5%' is not a share"),
        (["nan%", "builtin"], "'nan%' is not a share"),
        (["10%", "20%", "builtin"], "'20%' is not a share"),
        (["builtin", "30%"], "a share at the end names no source"),
        (["0%", "builtin", "0%", "happiness"], "every share is 0%: give a source more than 0%"),
        (["80%", "builtin", "30%", "happiness"], "the shares add up to 110.0%, more than 100%"),
        (["50%", "bogus"], "unknown source 'bogus'"),
    ])
    func mistakesAreUsageErrorsOfRandom(words: [String], message: String) throws {
        let error = #expect(throws: UsageError.self) { try SourceShares.parse(words) }
        #expect(error?.message.hasPrefix(message) == true, "\(words): \(error?.message ?? "no error")")
        #expect(error?.command == "random")
    }

    /// Each source is drawn as often as its weight says (10,000 seeded draws: the bounds are many
    /// standard deviations wide).
    @Test func drawsFollowTheWeights() {
        var generator = SeededGenerator(state: 42)
        let weights: [(String, Double)] = [("builtin", 90), ("happiness", 10)]
        var builtin = 0
        for _ in 0..<10_000 {
            if SourceShares.draw(weights, using: &generator) == "builtin" { builtin += 1 }
        }
        #expect((8_700...9_300).contains(builtin), "\(builtin)")
        #expect(SourceShares.draw([("custom.zen", 1)], using: &generator) == "custom.zen")
    }
}
