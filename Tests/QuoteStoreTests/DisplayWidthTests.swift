import Testing
@testable import QuoteStore

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

    @Test func paddingCountsColumns() {
        #expect(DisplayWidth.pad("비트코인", to: 10) == "비트코인  ")
        #expect(DisplayWidth.of(DisplayWidth.pad("비트코인 캐시", to: 6)) == 6)
        #expect(DisplayWidth.padded("abc", to: 2) == "abc ")
    }
}
