import Testing
import TestSupport
@testable import QuoteText

@Suite struct DisplayWidthTests {
    @Test func widthsAreTerminalColumns() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("행복") == 4)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("日本") == 4)
        #expect(DisplayWidth.of("👍") == 2)
        #expect(DisplayWidth.of("\u{200B}") == 0)
    }

    @Test func wrappingBreaksBetweenWordsByColumns() {
        let lines = DisplayWidth.wrap("Copy and paste paragraphs into quote files today", width: 20)
        #expect(lines == ["Copy and paste", "paragraphs into", "quote files today"])
        let korean = DisplayWidth.wrap("행복은 내면에서 오지 않고 사이에서 온다", width: 16)
        #expect(korean == ["행복은 내면에서", "오지 않고", "사이에서 온다"])
        #expect(korean.allSatisfy { DisplayWidth.of($0) <= 16 })
        #expect(DisplayWidth.wrap(String(repeating: "가", count: 10), width: 8) == ["가가가가", "가가가가", "가가"])
        #expect(DisplayWidth.wrap("one\n\ntwo", width: 10) == ["one", "", "two"])
    }

    /// A word wider than the line is cut piece by piece, the rest never measured again (a
    /// 100,000-character word at one column took minutes).
    @Test func aLongWordIsCutInOnePass() {
        LinearCost.expect(size: 100_000) { n in
            let lines = DisplayWidth.wrap(String(repeating: "a", count: n), width: 1)
            #expect(lines.count == n && lines.allSatisfy { $0 == "a" })
        }
        #expect(DisplayWidth.wrap("ab " + String(repeating: "가", count: 5) + " c", width: 4) == ["ab", "가가", "가가", "가 c"])
    }

    @Test func paddingCountsColumns() {
        #expect(DisplayWidth.pad("비트코인", to: 10) == "비트코인  ")
        #expect(DisplayWidth.of(DisplayWidth.pad("비트코인 캐시", to: 6)) == 6)
        #expect(DisplayWidth.padded("abc", to: 2) == "abc ")
    }
}

@Suite struct ShortenedTests {
    @Test func aLineThatFitsIsKeptWhole() {
        #expect(DisplayWidth.shortened("Be one.", to: 7) == "Be one.")
        #expect(DisplayWidth.shortened("", to: 5) == "")
    }

    @Test func itIsCutAtAWordWithAnEllipsis() {
        #expect(DisplayWidth.shortened("Waste no more time arguing", to: 15) == "Waste no more…")
        #expect(DisplayWidth.shortened("Failure is impossible. Go", to: 23) == "Failure is impossible…")
        #expect(DisplayWidth.shortened("one, two, three", to: 10) == "one, two…")
        for width in 1...30 {
            #expect(DisplayWidth.of(DisplayWidth.shortened("Waste no more time arguing about it", to: width)) <= width)
        }
    }

    @Test func wideCharactersCountTwoAndALongWordIsCutBetweenCharacters() {
        #expect(DisplayWidth.shortened("행복은 내면에서 오지 않는다", to: 10) == "행복은…")
        #expect(DisplayWidth.shortened("https://example.org/a/very/long/path", to: 12) == "https://exa…")
        #expect(DisplayWidth.shortened("行行行行行行", to: 5) == "行行…")
        #expect(DisplayWidth.shortened("abc", to: 0) == "")
        #expect(DisplayWidth.shortened("abc", to: 1) == "…")
    }
}

@Suite struct TableLayoutTests {
    let layout = TableLayout([.init("NAME"), .init("NOTE", .wrap), .init("EXTRA", .optional(rank: 1)), .init("AGE")])
    let rows = [["alpha", "a note that is long enough to wrap", "extra words", "3 h"], ["b", "short", "x", "10 min"]]

    @Test func aWideTerminalShowsEveryColumnOnOneLine() {
        let table = layout.render(rows, width: 120)
        #expect(table.header == ["NAME   NOTE                                EXTRA        AGE"])
        #expect(table.rows.map(\.count) == [1, 1])
    }

    @Test func aNarrowOneWrapsBetweenWordsAndNeverCutsAKeptCell() {
        let table = layout.render(rows, width: 50)
        for line in table.lines { #expect(DisplayWidth.of(line) <= 50, "\(line)") }
        #expect(table.rows[0].count > 1)  // the note wrapped onto a second line of the same row
        #expect(table.lines.joined(separator: " ").contains("3 h") && table.lines.joined(separator: " ").contains("10 min"))
        #expect(!table.lines.joined().contains("…"))
        let words = table.rows[0].joined(separator: " ").split(separator: " ")
        for word in "a note that is long enough to wrap".split(separator: " ") { #expect(words.contains(word), "\(word) was broken") }
    }

    @Test func theLeastUsefulColumnGoesBeforeARowWouldBreak() {
        let table = layout.render(rows, width: 24)
        #expect(!table.header[0].contains("EXTRA"), "\(table.header)")
        for line in table.lines { #expect(DisplayWidth.of(line) <= 24, "\(line)") }
    }

    @Test func tooNarrowForTheKeptCellsRowsBecomeFieldLines() {
        let table = layout.render(rows, width: 8)
        #expect(table.header.isEmpty)
        #expect(table.rows[0] == ["NAME  alpha", "NOTE  a note that is long enough to wrap", "EXTRA extra words", "AGE   3 h"])
    }

    @Test func pipedOutputIsWholeAlignedAndHeaderless() {
        let table = layout.render(rows, width: nil)
        #expect(table.header.isEmpty)
        #expect(table.lines == ["alpha  a note that is long enough to wrap  extra words  3 h", "b      short                               x            10 min"])
    }

    /// Like `ps`: the column names head the piped table too, each column as wide as its name at least.
    @Test func aPipedTableMayKeepItsHeaderRow() {
        let named = TableLayout([.init("NAME"), .init("LAST SUCCESS", .wrap), .init("AGE")], headerWhenPiped: true)
        let table = named.render([["alpha", "never", "3 h"], ["b", "disabled", "10 min"]], width: nil)
        #expect(table.header == ["NAME   LAST SUCCESS  AGE"])
        #expect(table.lines == ["NAME   LAST SUCCESS  AGE", "alpha  never         3 h", "b      disabled      10 min"])
    }
}
