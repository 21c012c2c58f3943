import Testing
import TestSupport
@testable import QuoteModels
@testable import QuoteFormats

/// Lists of a hostile shape — a million line ends, a million blank lines between two records, a
/// million spaces or CRs, a hundred thousand `%` lines — read by every reader, and read in one
/// pass: each is read at an eighth of its size too, and the full size may cost at most
/// `LinearCost.allowedGrowth` times the processor time (a reader that shifts what it holds once
/// per line, an Array's removeFirst, or measures it again costs 64 times; at a million, minutes).
/// What a read costs in time is scripts/bench/hostile.sh's to measure.
@Suite(.computing, .timeLimit(.minutes(10))) struct HostileShapesTests {
    static let million = 1_000_000

    static func lineEnds(_ count: Int) -> String { String(repeating: "\n", count: count) }

    func chunked(_ reader: any ListReader, _ text: String) throws -> ReadList {
        try readList(reader, Array(text.utf8), chunkSize: 65_536)
    }

    @Test
    func fortuneBlanksAreNoQuote() throws {
        try LinearCost.expect(size: Self.million) { (n: Int) throws in
            for blanks in [Self.lineEnds(n), String(repeating: "\r\n", count: n / 2), String(repeating: " ", count: n),
                           String(repeating: "\r", count: n), String(repeating: "%\n", count: n / 10)] {
                #expect(try chunked(FortuneReader(source: "custom.f"), blanks) == ReadList())
            }
        }
    }

    @Test
    func fortuneRecordsAroundAMillionBlankLinesRead() throws {
        try LinearCost.expect(size: Self.million) { (n: Int) throws in
            let around = try chunked(FortuneReader(source: "custom.f"), "one\n%\n" + Self.lineEnds(n) + "%\ntwo\n")
            #expect(around.quotes.map(\.text) == ["one", "two"] && around.places == [.line(1), .line(n + 4)])
            let afterPercents = try chunked(FortuneReader(source: "custom.f"), String(repeating: "%\n", count: n / 10) + "one\n")
            #expect(afterPercents.quotes.map(\.text) == ["one"] && afterPercents.places == [.line(n / 10 + 1)])
        }
    }

    /// Blank lines at a record's start, on the byte path (ASCII) and on the String path (not).
    @Test(arguments: ["cafe", "café"])
    func fortuneBlankLinesBeforeARecordsTextRead(text: String) throws {
        try LinearCost.expect(size: Self.million) { (n: Int) throws in
            let read = try chunked(FortuneReader(source: "custom.f"), Self.lineEnds(n) + text + "\n")
            #expect(read.quotes.map(\.text) == [text] && read.places == [.line(n + 1)])
        }
    }

    @Test(arguments: ListFormat.Split.allCases)
    func textBlanksAreNoQuote(split: ListFormat.Split) throws {
        try LinearCost.expect(size: Self.million) { (n: Int) throws in
            for blanks in [Self.lineEnds(n), String(repeating: " ", count: n), String(repeating: "\r", count: n)] {
                #expect(try chunked(TextReader(source: "custom.t", split: split), blanks) == ReadList())
            }
            let around = try chunked(TextReader(source: "custom.t", split: split), "one\n" + Self.lineEnds(n) + "two\n")
            #expect(around.quotes.map(\.text) == ["one", "two"] && around.places == [.line(1), .line(n + 2)])
        }
    }

    @Test
    func csvBlankLinesAreNoRows() throws {
        try LinearCost.expect(size: Self.million) { (n: Int) throws in
            #expect(try chunked(CSVReader(source: "custom.c"), Self.lineEnds(n)) == ReadList())
            #expect(try chunked(CSVReader(source: "custom.c"), String(repeating: "\r", count: n)) == ReadList())
            let around = try chunked(CSVReader(source: "custom.c"), "text\n" + Self.lineEnds(n) + "two\n")
            #expect(around.quotes.map(\.text) == ["two"] && around.places == [.line(n + 2)])
            let crlf = try chunked(CSVReader(source: "custom.c"), "text\r\n" + String(repeating: "\r\n", count: n / 2) + "two\r\n")
            #expect(crlf.quotes.map(\.text) == ["two"] && crlf.places == [.line(n / 2 + 2)])
        }
    }

    @Test
    func jsonWhiteSpaceIsPassedOver() throws {
        try LinearCost.expect(size: Self.million) { (n: Int) throws in
            #expect(try chunked(CustomList.Reader(source: "custom.j"), "[" + Self.lineEnds(n) + "]") == ReadList())
            let list = #"[{"id": 1, "text": "a"},"# + Self.lineEnds(n) + String(repeating: " ", count: n) + #"{"id": 2, "text": "b"}]"#
            let read = try chunked(CustomList.Reader(source: "custom.j"), list)
            #expect(read.quotes.map(\.text) == ["a", "b"] && read.places == [.record(1), .record(2)])
            var format = ListFormat(kind: .json)
            format.items = "/items"
            let around = #"{"before": ""# + String(repeating: " ", count: n) + #"", "items":"# + Self.lineEnds(n) + #"[{"id": 3, "text": "c"}]}"#
            let pointed = try chunked(CustomList.Reader(source: "custom.j", format: format), around)
            #expect(pointed.quotes.map(\.text) == ["c"])
        }
    }

    @Test
    func feedWhiteSpaceAndMarkupAreNoText() throws {
        let entry = { (id: Int) in "<entry><id>\(id)</id><content>Entry \(id)</content></entry>" }
        try LinearCost.expect(size: Self.million) { (n: Int) throws in
            let atom = #"<feed xmlns="http://www.w3.org/2005/Atom">"# + entry(1) + Self.lineEnds(n) + entry(2) + "</feed>"
            let read = try FeedRead(atom, format: ListFormat(kind: .atom), chunk: 65_536)
            #expect(read.quotes.map(\.text) == ["Entry 1", "Entry 2"])
            let breaks = String(repeating: "&lt;br&gt; ", count: n / 11)
            let rss = "<rss><channel><item><guid>1</guid><description>" + breaks + "x" + breaks + "</description></item></channel></rss>"
            #expect(try FeedRead(rss, format: ListFormat(kind: .rss), chunk: 65_536).quotes.map(\.text) == ["x"])
        }
    }

    @Test
    func htmlOfAHostileShapeIsReadOnce() {
        LinearCost.expect(size: Self.million) { n in
            #expect(HTMLText.text(String(repeating: " ", count: n) + "x" + Self.lineEnds(n)) == "x")
            #expect(HTMLText.text(String(repeating: "<br>", count: n / 4) + "x") == "x")
            #expect(HTMLText.text(String(repeating: "&", count: n)) == String(repeating: "&", count: n))
            #expect(HTMLText.text("x" + String(repeating: "<b", count: n / 2)) == "x")
            #expect(HTMLText.text("x" + String(repeating: "<script>", count: n / 10)) == "x")
            #expect(HTMLText.text("x" + String(repeating: "<!--", count: n / 4)) == "x")
        }
    }

    @Test
    func autoTellsAfterAMillionLineEnds() throws {
        try LinearCost.expect(size: Self.million) { (n: Int) throws in
            let empty = AutoReader(settings: ListFormat(kind: .auto), source: "custom.a", contentType: nil, name: nil)
            #expect(try chunked(empty, Self.lineEnds(n)) == ReadList())
            let fortune = try chunked(AutoReader(settings: ListFormat(kind: .auto), source: "custom.a", contentType: nil, name: nil),
                                      Self.lineEnds(n) + "one\n%\ntwo\n")
            #expect(fortune.quotes.map(\.text) == ["one", "two"] && fortune.places == [.line(n + 1), .line(n + 3)])
        }
    }
}
