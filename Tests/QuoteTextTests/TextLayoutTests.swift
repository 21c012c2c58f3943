import Testing
@testable import QuoteText

/// A quote at a terminal: a one-line quote wraps at the width, one its writer laid out is
/// printed as written, never rewrapped.
@Suite struct TextLayoutTests {
    @Test func aLineBreakATabOrARunOfSpacesMarksATextPreformatted() {
        #expect(TextLayout.isPreformatted("first line\nsecond line"))
        #expect(TextLayout.isPreformatted("Q:\tWhy?"))
        #expect(!TextLayout.isPreformatted("Two spaces.  After a full stop, as typists wrote."))
        #expect(!TextLayout.isPreformatted("One line, one space between words."))
        #expect(!TextLayout.isPreformatted("행복은 내면에서 오지 않고 사이에서 온다"))
        #expect(!TextLayout.isPreformatted(""))
    }

    @Test func aOneLineQuoteWrapsAtTheWidth() {
        #expect(TextLayout.lines("Copy and paste paragraphs into quote files today", width: 20)
                == ["Copy and paste", "paragraphs into", "quote files today"])
    }

    @Test func aPreformattedQuoteIsPrintedAsWritten() {
        let art = "\t\t  /\\_/\\\n\t\t ( o.o )   a cat that is wider than the reader's twenty columns\n\t\t  > ^ <"
        #expect(TextLayout.lines(art, width: 20) == ["\t\t  /\\_/\\", "\t\t ( o.o )   a cat that is wider than the reader's twenty columns", "\t\t  > ^ <"])
        let verse = "A man who weighs his every word\nIs seldom wrong, and seldom heard;\n\n    But one who speaks"
        #expect(TextLayout.lines(verse, width: 20) == ["A man who weighs his every word", "Is seldom wrong, and seldom heard;", "", "    But one who speaks"])
        // One line flows, two spaces after a full stop or not.
        #expect(TextLayout.lines("Two spaces.  Then more words", width: 12) == ["Two spaces.", "Then more", "words"])
    }
}
