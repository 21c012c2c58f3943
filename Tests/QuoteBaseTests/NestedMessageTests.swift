@testable import QuoteBase
import Testing

/// A message placed inside another keeps both readings: completion scripts (generated once, at
/// install time) take the English, help shows the translation. Without a catalog (as here, and
/// in the daemon) both are the English.
@Suite struct NestedMessageTests {
    let range: Message = declared("\("1s") to \("1d")")

    @Test func aNestedMessageIsOneValueOfTheOuterKey() {
        let help: Message = "With --follow: a new quote this often (default \("5m"); from \(range))."
        #expect(help.key == "With --follow: a new quote this often (default %1$s; from %2$s).")
        #expect(help.english == "With --follow: a new quote this often (default 5m; from 1s to 1d).")
        #expect(help.values == ["5m", "1s to 1d"])
        #expect(range.key == "%1$s to %2$s")
    }

    @Test func aMessageInterpolatedIntoTextReadsItsText() {
        #expect("a duration from \(range)" == "a duration from 1s to 1d")
        #expect(tr("a duration from \(range)") == "a duration from 1s to 1d")
    }

    @Test func aMessageOfOnlyANestedOneHasAKeyWithAPlaceholder() {
        let outer: Message = "\(range)."
        #expect(outer.key == "%1$s.")
        #expect(outer.english == "1s to 1d.")
    }
}
