import QuoteBase
import Testing

/// `draw(below:)`: uniform in 0..<bound for every bound, the extremes included.
@Suite struct UniformDrawTests {
    /// SplitMix64: a fixed sequence, so each case is the same every run.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A generator that answers with the words it is given, then zeros.
    struct Scripted: RandomNumberGenerator {
        var words: [UInt64]
        var asked = 0
        mutating func next() -> UInt64 {
            asked += 1
            return words.isEmpty ? 0 : words.removeFirst()
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 7, 10, 1_000_000, 4_294_967_297, 9_223_372_036_854_775_808, UInt64.max - 1, UInt64.max])
    func everyDrawIsBelowItsBound(bound: UInt64) {
        var generator = SplitMix(state: bound)
        for _ in 0..<2_000 { #expect(generator.draw(below: bound) < bound) }
    }

    @Test func aBoundOfZeroOrOneDrawsZero() {
        var generator = SplitMix(state: 7)
        #expect(generator.draw(below: 0) == 0)
        #expect(generator.draw(below: 1) == 0)
    }

    /// 2^64 mod 3 is 1: a word whose product's low half is 0 would favour one result, and is drawn again.
    @Test func aBiasedWordIsDrawnAgain() {
        var generator = Scripted(words: [0, UInt64.max])
        #expect(generator.draw(below: 3) == 2)
        #expect(generator.asked == 2)
        var kept = Scripted(words: [1 << 63])
        #expect(kept.draw(below: 3) == 1)
        #expect(kept.asked == 1)
    }

    /// Seven results over 70,000 draws: chi-square with 6 degrees of freedom below 22.46 (p = 0.001).
    @Test func drawsAreUniform() {
        var generator = SplitMix(state: 41)
        var counts = [Int](repeating: 0, count: 7)
        for _ in 0..<70_000 { counts[Int(generator.draw(below: 7))] += 1 }
        let chiSquare = counts.reduce(0.0) { $0 + Double(($1 - 10_000) * ($1 - 10_000)) / 10_000 }
        #expect(chiSquare < 22.46, "\(counts)")
    }
}
