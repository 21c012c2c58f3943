import Testing
import TestSupport
@testable import QuoteModels
@testable import QuoteFormats

/// Lists of a hostile shape — a million line ends, a million blank lines between two records, a
/// million spaces or CRs, a hundred thousand `%` lines — read in one pass by every reader. A
/// reader that shifts what it holds once per line (an Array's removeFirst) or measures it again
/// takes minutes on these, past each test's time limit; what a read costs is
/// scripts/bench/hostile.sh's to measure.
@Suite(.computing) struct HostileShapesTests {
    static let million = 1_000_000
    static let lineEnds = String(repeating: "\n", count: 1_000_000)

    func chunked(_ reader: any ListReader, _ text: String) throws -> ReadList {
        try readList(reader, Array(text.utf8), chunkSize: 65_536)
    }

    @Test(.timeLimit(.minutes(1)))
    func fortuneBlanksAreNoQuote() throws {
        for blanks in [Self.lineEnds, String(repeating: "\r\n", count: 500_000), String(repeating: " ", count: Self.million),
                       String(repeating: "\r", count: Self.million), String(repeating: "%\n", count: 100_000)] {
            #expect(try chunked(FortuneReader(source: "custom.f"), blanks) == ReadList())
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func fortuneRecordsAroundAMillionBlankLinesRead() throws {
        let around = try chunked(FortuneReader(source: "custom.f"), "one\n%\n" + Self.lineEnds + "%\ntwo\n")
        #expect(around.quotes.map(\.text) == ["one", "two"] && around.places == [.line(1), .line(1_000_004)])
        let afterPercents = try chunked(FortuneReader(source: "custom.f"), String(repeating: "%\n", count: 100_000) + "one\n")
        #expect(afterPercents.quotes.map(\.text) == ["one"] && afterPercents.places == [.line(100_001)])
    }

    /// Blank lines at a record's start, on the byte path (ASCII) and on the String path (not).
    @Test(.timeLimit(.minutes(1)), arguments: ["cafe", "café"])
    func fortuneBlankLinesBeforeARecordsTextRead(text: String) throws {
        let read = try chunked(FortuneReader(source: "custom.f"), Self.lineEnds + text + "\n")
        #expect(read.quotes.map(\.text) == [text] && read.places == [.line(1_000_001)])
    }

    @Test(.timeLimit(.minutes(1)), arguments: ListFormat.Split.allCases)
    func textBlanksAreNoQuote(split: ListFormat.Split) throws {
        for blanks in [Self.lineEnds, String(repeating: " ", count: Self.million), String(repeating: "\r", count: Self.million)] {
            #expect(try chunked(TextReader(source: "custom.t", split: split), blanks) == ReadList())
        }
        let around = try chunked(TextReader(source: "custom.t", split: split), "one\n" + Self.lineEnds + "two\n")
        #expect(around.quotes.map(\.text) == ["one", "two"] && around.places == [.line(1), .line(1_000_002)])
    }

    @Test(.timeLimit(.minutes(1)))
    func csvBlankLinesAreNoRows() throws {
        #expect(try chunked(CSVReader(source: "custom.c"), Self.lineEnds) == ReadList())
        #expect(try chunked(CSVReader(source: "custom.c"), String(repeating: "\r", count: Self.million)) == ReadList())
        let around = try chunked(CSVReader(source: "custom.c"), "text\n" + Self.lineEnds + "two\n")
        #expect(around.quotes.map(\.text) == ["two"] && around.places == [.line(1_000_002)])
        let crlf = try chunked(CSVReader(source: "custom.c"), "text\r\n" + String(repeating: "\r\n", count: 500_000) + "two\r\n")
        #expect(crlf.quotes.map(\.text) == ["two"] && crlf.places == [.line(500_002)])
    }

    @Test(.timeLimit(.minutes(1)))
    func jsonWhiteSpaceIsPassedOver() throws {
        #expect(try chunked(CustomList.Reader(source: "custom.j"), "[" + Self.lineEnds + "]") == ReadList())
        let list = #"[{"id": 1, "text": "a"},"# + Self.lineEnds + String(repeating: " ", count: Self.million) + #"{"id": 2, "text": "b"}]"#
        let read = try chunked(CustomList.Reader(source: "custom.j"), list)
        #expect(read.quotes.map(\.text) == ["a", "b"] && read.places == [.record(1), .record(2)])
        var format = ListFormat(kind: .json)
        format.items = "/items"
        let around = #"{"before": ""# + String(repeating: " ", count: Self.million) + #"", "items":"# + Self.lineEnds + #"[{"id": 3, "text": "c"}]}"#
        let pointed = try chunked(CustomList.Reader(source: "custom.j", format: format), around)
        #expect(pointed.quotes.map(\.text) == ["c"])
    }

    @Test(.timeLimit(.minutes(1)))
    func feedWhiteSpaceAndMarkupAreNoText() throws {
        let entry = { (id: Int) in "<entry><id>\(id)</id><content>Entry \(id)</content></entry>" }
        let atom = #"<feed xmlns="http://www.w3.org/2005/Atom">"# + entry(1) + Self.lineEnds + entry(2) + "</feed>"
        let read = try FeedRead(atom, format: ListFormat(kind: .atom), chunk: 65_536)
        #expect(read.quotes.map(\.text) == ["Entry 1", "Entry 2"])
        let breaks = String(repeating: "&lt;br&gt; ", count: 90_000)
        let rss = "<rss><channel><item><guid>1</guid><description>" + breaks + "x" + breaks + "</description></item></channel></rss>"
        #expect(try FeedRead(rss, format: ListFormat(kind: .rss), chunk: 65_536).quotes.map(\.text) == ["x"])
    }

    @Test(.timeLimit(.minutes(1)))
    func htmlOfAHostileShapeIsReadOnce() {
        #expect(HTMLText.text(String(repeating: " ", count: Self.million) + "x" + Self.lineEnds) == "x")
        #expect(HTMLText.text(String(repeating: "<br>", count: 250_000) + "x") == "x")
        #expect(HTMLText.text(String(repeating: "&", count: Self.million)) == String(repeating: "&", count: Self.million))
        #expect(HTMLText.text("x" + String(repeating: "<b", count: 500_000)) == "x")
        #expect(HTMLText.text("x" + String(repeating: "<script>", count: 100_000)) == "x")
        #expect(HTMLText.text("x" + String(repeating: "<!--", count: 250_000)) == "x")
    }

    @Test(.timeLimit(.minutes(1)))
    func autoTellsAfterAMillionLineEnds() throws {
        let empty = AutoReader(settings: ListFormat(kind: .auto), source: "custom.a", contentType: nil, name: nil)
        #expect(try chunked(empty, Self.lineEnds) == ReadList())
        let fortune = try chunked(AutoReader(settings: ListFormat(kind: .auto), source: "custom.a", contentType: nil, name: nil),
                                  Self.lineEnds + "one\n%\ntwo\n")
        #expect(fortune.quotes.map(\.text) == ["one", "two"] && fortune.places == [.line(1_000_001), .line(1_000_003)])
    }
}
