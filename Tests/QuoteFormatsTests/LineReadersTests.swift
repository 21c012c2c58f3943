import Foundation
import Testing
@testable import QuoteModels
@testable import QuoteFormats
import TestSupport

/// What a reader handed over: the good quotes and the problems, in order.
struct ReadList: Equatable {
    var quotes: [Quote] = []
    var places: [ListPlace] = []
    var derived: [Bool] = []
    var problems: [ListProblem] = []
}

/// Reads `bytes` through `reader`, fed `chunkSize` bytes at a time (0: whole).
func readList(_ reader: any ListReader, _ bytes: [UInt8], chunkSize: Int = 0) throws -> ReadList {
    var reader = reader
    var read = ReadList()
    let take = { (record: ListRecord) in
        switch record {
        case .quote(let entry):
            read.quotes.append(entry.quote)
            read.places.append(entry.place)
            read.derived.append(entry.idIsDerived)
        case .problem(let problem): read.problems.append(problem)
        }
    }
    let size = chunkSize > 0 ? chunkSize : max(bytes.count, 1)
    var start = 0
    while start < bytes.count {
        let end = min(start + size, bytes.count)
        try Array(bytes[start..<end]).withUnsafeBytes { try reader.feed($0, take) }
        start = end
    }
    try reader.finish(take)
    return read
}

func fixtureBytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: Fixtures.folder.appendingPathComponent(name)))
}

/// Fortune files at their extremes, read as `quotectl import` always read them (the same texts,
/// authors and ids derived from the text), now streamed.
@Suite(.computing) struct FortuneReaderTests {
    func fortune(_ text: String, chunk: Int = 0) throws -> ReadList {
        try readList(FortuneReader(source: "custom.f"), Array(text.utf8), chunkSize: chunk)
    }

    @Test func emptyOrOnlySeparatorsIsNoQuotes() throws {
        #expect(try fortune("") == ReadList())
        #expect(try fortune("%\n%\n%\n") == ReadList())
        #expect(try fortune("%") == ReadList())
        #expect(try fortune("\n\n  \r\n%\r\n\t\n") == ReadList())
    }

    @Test func lineEndsAndAMarkAreNotText() throws {
        let read = try fortune("\u{FEFF}one\r\n\t\t-- A\r\n%\r\ntwo\r\n")
        #expect(read.quotes.map(\.text) == ["one", "two"] && read.quotes.first?.author == "A")
        #expect(read.places == [.line(1), .line(4)])
    }

    /// fortune prints a record as written: its lines, blank lines, indentation (the first line's
    /// too), runs of spaces and tabs stay; blanks at the ends of lines and of the record go.
    @Test func aRecordIsKeptAsWritten() throws {
        let read = try fortune("%\n\n  first  \n\tline\n  \nsecond\t \n %\n\n    ― Seneca\n\n\n%\n")
        #expect(read.quotes.map(\.text) == ["  first\n\tline\n\nsecond\n%"])
        #expect(read.quotes.first?.author == "Seneca")
        #expect(read.places == [.line(3)])
    }

    /// ASCII art reads the same whether the record is ASCII (read on its bytes) or not (on Strings).
    @Test func artIsKeptOnTheByteAndTheStringPath() throws {
        let art = "\t\t  /\\_/\\\n\t\t ( o.o )    meow\n\t\t  > ^ <\n"
        let ascii = try fortune(art + "\t\t-- Cat\n%\n")
        let unicode = try fortune(art + "\t\t— Cat\n%\n")
        #expect(ascii.quotes.map(\.text) == ["\t\t  /\\_/\\\n\t\t ( o.o )    meow\n\t\t  > ^ <"])
        #expect(unicode.quotes.map(\.text) == ascii.quotes.map(\.text))
        #expect(ascii.quotes.map(\.author) == ["Cat"] && unicode.quotes.map(\.author) == ["Cat"])
    }

    @Test func idsAreDerivedAsImportAlwaysDerivedThem() throws {
        let read = try fortune("Be yourself.\n\t-- Oscar Wilde\n%\nBe yourself.\n%\n")
        #expect(read.quotes.map(\.upstreamID) == [String(FNV1a.hash("Be yourself.").value, radix: 16), String(FNV1a.hash("Be yourself.").value, radix: 16)])
        #expect(read.derived == [true, true])
    }

    /// Ids derive from the text as readers before records were kept as written stored it (lines
    /// without their indentation, joined by spaces): a list read again keeps its ids, so its rows
    /// are updated in place and its likes and hides still name them.
    @Test func aRecordKeptAsWrittenKeepsTheIdOfItsReflowedReading() throws {
        let id = { (text: String) in String(FNV1a.hash(text).value, radix: 16) }
        // The byte path (ASCII) and the String path (ñ) alike.
        for word in ["man", "mañ"] {
            let read = try fortune("  The careful \(word)\n  is careful of his words\n\n\tAnd temperate\n\t\t-- Somebody\n%\n")
            #expect(read.quotes.map(\.text) == ["  The careful \(word)\n  is careful of his words\n\n\tAnd temperate"])
            #expect(read.quotes.map(\.upstreamID) == [id("The careful \(word) is careful of his words\nAnd temperate")], "\(word)")
        }
        let line = try readList(TextReader(source: "custom.t"), Array("Stay hungry. - Steve Jobs\n".utf8))
        #expect(line.quotes.map(\.author) == ["Steve Jobs"])
        #expect(line.quotes.map(\.upstreamID) == [id("Stay hungry. - Steve Jobs")])
        let paragraph = try readList(TextReader(source: "custom.t", split: .paragraph), Array("  Two lines\n  of verse\n- Poet\n\n".utf8))
        #expect(paragraph.quotes.map(\.text) == ["  Two lines\n  of verse"])
        #expect(paragraph.quotes.map(\.upstreamID) == [id("Two lines of verse - Poet")])
        let dashed = try readList(TextReader(source: "custom.t", split: .paragraph), Array("One\ntwo\n-- Poet\n\n".utf8))
        #expect(dashed.quotes.map(\.upstreamID) == [id("One two")])
    }

    /// A rule of dashes at a record's end is part of the art, not its author.
    @Test func aLastLineOfDashesIsNoAuthor() throws {
        for ending in ["   ----------", " -|--|-"] {
            for letter in ["x", "ñ"] {
                let read = try fortune("\(letter) art\n\(ending)\n%\n")
                #expect(read.quotes.map(\.text) == ["\(letter) art\n\(ending)"])
                #expect(read.quotes.map(\.author) == [nil])
            }
        }
    }

    @Test func bytesThatAreNotUTF8AreLatin1() throws {
        let read = try readList(FortuneReader(source: "custom.f"), [0x73, 0x63, 0x68, 0xF6, 0x6E, 0x0A, 0x25, 0x0A])
        #expect(read.quotes.map(\.text) == ["schön"])
    }

    @Test func aNULOrATooLongQuoteIsAProblemNamingItsLine() throws {
        let read = try fortune("ok\n%\na\u{0}b\n%\n" + String(repeating: "x", count: QuoteLength.maximumLength + 1) + "\n%\nfine\n")
        #expect(read.quotes.map(\.text) == ["ok", "fine"])
        #expect(read.problems.map(\.place) == [.line(3), .line(5)])
        #expect(read.problems[0].reason.contains("NUL character"))
        #expect(read.problems[1].reason.contains("longer than 10000 characters"))
    }

    @Test func aRecordPastTheCapIsSkippedToTheNextSeparator() throws {
        let huge = String(repeating: String(repeating: "y", count: 1000) + "\n", count: 1100)
        let read = try fortune("before\n%\n" + huge + "%\nafter\n", chunk: 4096)
        #expect(read.quotes.map(\.text) == ["before", "after"])
        #expect(read.problems.count == 1 && read.problems[0].place == .line(3))
        #expect(read.problems[0].reason.hasPrefix("longer than 1 MiB"))
    }

    @Test func theFixtureReadsTheSameInChunksOfEverySize() throws {
        let bytes = try fixtureBytes("lists/oddities.fortune")
        let whole = try readList(FortuneReader(source: "custom.f"), bytes)
        #expect(whole.quotes.map(\.text) == [
            "A day without sunshine is like, you know, night.",
            "Das Leben ist schön, wenn man es\nnicht zu ernst nimmt.",
            "Q:\tHow many programmers does it take to change a light bulb?\nA:\tNone, that's a hardware problem.",
            "First paragraph of a longer one,\nwrapped for the terminal.\n\nSecond paragraph.",
            "Progress is 99%\n%\ndone.",
            "The last one has trailing blank lines.",
        ])
        #expect(whole.quotes.map(\.author) == ["Steve Martin", "Unbekannt", nil, "Anonymous", nil, "Fortune"])
        #expect(whole.problems.isEmpty)
        for size in 1...64 {
            #expect(try readList(FortuneReader(source: "custom.f"), bytes, chunkSize: size) == whole, "chunks of \(size)")
        }
    }
}

@Suite(.computing) struct TextReaderTests {
    func text(_ text: String, split: ListFormat.Split = .line, chunk: Int = 0) throws -> ReadList {
        try readList(TextReader(source: "custom.t", split: split), Array(text.utf8), chunkSize: chunk)
    }

    @Test func aQuotePerLineWithItsAuthorAfterADash() throws {
        let read = try text("a — B\r\nc\r\n\n  \r\nd -- E F\ng — \n")
        #expect(read.quotes.map(\.text) == ["a", "c", "d", "g —"])
        #expect(read.quotes.map(\.author) == ["B", nil, "E F", nil])
        #expect(read.places == [.line(1), .line(2), .line(5), .line(6)])
        #expect(try text("") == ReadList() && text("\n\n  \r\n") == ReadList())
    }

    @Test func theSameTextTwiceHasTheSameDerivedID() throws {
        let read = try text("same\nsame\nother")
        #expect(read.quotes.count == 3 && read.quotes[0].upstreamID == read.quotes[1].upstreamID)
        #expect(read.derived == [true, true, true])
    }

    /// A paragraph is kept as written (verse stays verse): its line breaks and indentation.
    @Test func paragraphsKeepTheirLinesAndALastDashLineIsTheAuthor() throws {
        let read = try text("\n\nThe first\n  paragraph.  \n— Seneca\n\n\nSecond — Ovid\n\nthird\nand last", split: .paragraph)
        #expect(read.quotes.map(\.text) == ["The first\n  paragraph.", "Second", "third\nand last"])
        #expect(read.quotes.map(\.author) == ["Seneca", "Ovid", nil])
        #expect(read.places == [.line(3), .line(8), .line(10)])
    }

    /// An ASCII hyphen between spaces before a name is an attribution dash, as " — " and " -- " are.
    @Test func aSpacedHyphenBeforeANameIsTheAuthor() throws {
        let read = try text("Stay hungry. - Steve Jobs\nThe little prince - Antoine de Saint-Exupéry\n행복은 사이에서 온다 - 조너선 하이트\n")
        #expect(read.quotes.map(\.text) == ["Stay hungry.", "The little prince", "행복은 사이에서 온다"])
        #expect(read.quotes.map(\.author) == ["Steve Jobs", "Antoine de Saint-Exupéry", "조너선 하이트"])
        let paragraph = try text("Stay hungry.\nStay foolish.\n- Steve Jobs\n", split: .paragraph)
        #expect(paragraph.quotes.map(\.text) == ["Stay hungry.\nStay foolish."] && paragraph.quotes.map(\.author) == ["Steve Jobs"])
    }

    /// Hyphenated words, ranges and a hyphen before what is no name stay text.
    @Test(arguments: ["A well-known truth", "Read pages 1-2 first", "It ended 3 - 2", "Do - or do not",
                      "Choose this - that", "-5 degrees outside", "Life is short - Live it well"])
    func aHyphenThatIsNoAttributionStaysText(line: String) throws {
        let read = try text(line + "\n")
        #expect(read.quotes.map(\.text) == [line] && read.quotes.map(\.author) == [nil])
        let paragraph = try text("The quote\n" + line + "\n", split: .paragraph)
        #expect(paragraph.quotes.map(\.text) == ["The quote\n" + line] && paragraph.quotes.map(\.author) == [nil])
    }

    @Test func aLineLongerThanTheCapIsAProblem() throws {
        let read = try text("a\n" + String(repeating: "z", count: (1 << 20) + 5) + "\nb\n", chunk: 65536)
        #expect(read.quotes.map(\.text) == ["a", "b"])
        #expect(read.problems.map(\.place) == [.line(2)])
    }

    @Test func everyChunkSizeReadsTheSame() throws {
        let body = "\u{FEFF}one — A\r\ntwo\r\n\r\nthree -- C\n"
        for split in ListFormat.Split.allCases {
            let whole = try text(body, split: split)
            for size in 1...16 { #expect(try text(body, split: split, chunk: size) == whole) }
        }
    }
}

@Suite(.computing) struct CSVReaderTests {
    func csv(_ text: String, fields: [ListFormat.Field: String] = [:], chunk: Int = 0) throws -> ReadList {
        try readList(CSVReader(source: "custom.c", fields: fields), Array(text.utf8), chunkSize: chunk)
    }

    @Test func quotedCellsHoldCommasQuotesAndLineBreaks() throws {
        let read = try csv("id,text,author\r\n7,\"a, \"\"b\"\"\r\nc\",\"D\"\r\n8,plain,\n")
        #expect(read.quotes.map(\.text) == ["a, \"b\"\nc", "plain"])
        #expect(read.quotes.map(\.author) == ["D", nil])
        #expect(read.quotes.map(\.upstreamID) == ["7", "8"] && read.derived == [false, false])
        #expect(read.places == [.line(2), .line(4)])
    }

    @Test func columnsAreNamedWithoutRegardToCaseOrMappedByFields() throws {
        #expect(try csv("QUOTE , Author\nx,y\n").quotes.map(\.author) == ["y"])
        let mapped = try csv("Said by,Quote text\nSeneca,Luck\n", fields: [.text: "quote text", .author: "Said by"])
        #expect(mapped.quotes.map(\.text) == ["Luck"] && mapped.quotes.map(\.author) == ["Seneca"])
        #expect(mapped.derived == [true])
    }

    /// The failure says how to name the text's column: --fields (fields = in a list's section).
    @Test func aHeaderWithoutATextColumnIsNotCSV() {
        #expect(throws: ListFailure("not CSV: line 1: the header (name, said) has no \"text\" or \"quote\" column (name the one "
                                    + "that holds the text with --fields text:COLUMN, or fields = text:COLUMN in quoted.conf)")) {
            try csv("name,said\na,b\n")
        }
        #expect(throws: ListFailure("not CSV: line 1: the header (name, said) has no \"Quote text\" column")) {
            try csv("name,said\na,b\n", fields: [.text: "Quote text"])
        }
        #expect(throws: ListFailure("not CSV: line 2: a quoted cell is not closed")) { try csv("text\n\"open\n") }
    }

    @Test func aRowWithTheWrongCountOfCellsIsAProblemNamingItsLine() throws {
        let read = try csv("text,author\na\nb,c,d\n\"e\",f")
        #expect(read.quotes.map(\.text) == ["e"])
        #expect(read.problems.map(\.description) == ["line 2: 1 cell, the header has 2", "line 3: 3 cells, the header has 2"])
    }

    @Test func anEmptyTextOrIDIsAProblem() throws {
        let read = try csv("id,text\n1,\n,b\n2, c \n")
        #expect(read.quotes.map(\.text) == ["c"])
        #expect(read.problems.map(\.reason) == ["\"text\" is empty", "\"id\" is empty"])
    }

    @Test func aRowPastTheCapOrWithTooManyCellsIsAProblemAndTheNextRowReads() throws {
        let huge = "\"" + String(repeating: "q\n", count: 600_000) + "\""
        let commas = String(repeating: ",", count: 10_000)
        let read = try csv("text\n" + huge + "\nafter\n" + commas + "\nlast\n", chunk: 8192)
        #expect(read.quotes.map(\.text) == ["after", "last"])
        #expect(read.problems.map(\.place) == [.line(2), .line(600_004)])
        #expect(read.problems.first?.reason.hasPrefix("longer than 1 MiB") == true)
        #expect(read.problems.last?.reason == "more than 4096 cells")
    }

    @Test func onlyAHeaderOrNothingIsNoQuotes() throws {
        #expect(try csv("") == ReadList())
        #expect(try csv("text\r\n") == ReadList())
    }

    @Test func quotectlsExportReadsBack() throws {
        let read = try csv("source,id,text,author,category,lang,production,episode\ncustom.x,b1,'=1+1,'-A,c,en,,\n")
        #expect(read.quotes.map(\.text) == ["=1+1"] && read.quotes.map(\.author) == ["-A"])
        #expect(read.quotes.map(\.category) == ["c"] && read.quotes.map(\.upstreamID) == ["b1"])
    }

    @Test func theExcelFixtureReadsTheSameInChunksOfEverySize() throws {
        let bytes = try fixtureBytes("lists/excel.csv")
        let whole = try readList(CSVReader(source: "custom.c"), bytes)
        #expect(whole.quotes.map(\.text) == [
            "The secret of getting ahead is getting started.", "She said \"hello\", then left.", "Line one\nLine two",
            "Nobody said this", "=1+1 is not a formula here", "Café — luck is what happens when preparation meets opportunity.",
        ])
        #expect(whole.quotes.map(\.author) == ["Mark Twain", "Doe, Jane", "Anonymous", nil, "Ada Lovelace", "Seneca"])
        #expect(whole.quotes.map(\.category) == ["motivation", nil, "poetry", nil, "maths", nil])
        #expect(whole.problems.map(\.place) == [.line(9)])
        for size in 1...64 {
            #expect(try readList(CSVReader(source: "custom.c"), bytes, chunkSize: size) == whole, "chunks of \(size)")
        }
    }
}

@Suite(.computing) struct AutoReaderTests {
    func decided(_ body: String, contentType: String? = nil, name: String? = nil, chunk: Int = 0) throws -> ListFormat.Kind? {
        var reader = try ListReaders.reader(for: ListFormat(kind: .auto), source: "custom.a", contentType: contentType, name: name)
        let bytes = Array(body.utf8)
        var start = 0
        let size = chunk > 0 ? chunk : max(bytes.count, 1)
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            // What the decided reader makes of the bytes is not what is asked here.
            try? Array(bytes[start..<end]).withUnsafeBytes { try reader.feed($0) { _ in } }
            start = end
        }
        try? reader.finish { _ in }
        return reader.format
    }

    @Test(arguments: [
        ("[{\"id\":1,\"text\":\"a\"}]", ListFormat.Kind.json), ("\u{FEFF}  \n[]", .json), ("a\n%\nb\n", .fortune), ("%", .fortune),
        ("100%\nfine\n", .text), ("", .text), ("<?xml version=\"1.0\"?>\n<!-- c -->\n<feed xmlns=\"x\">", .atom),
        ("<rss version=\"2.0\">", .rss), ("<rdf:RDF>", .rss),
    ])
    func theBytesTell(body: String, kind: ListFormat.Kind) throws {
        let bytes = Array(body.utf8)
        #expect(FormatSniffer.decide(contentType: nil, name: nil, head: bytes, complete: true) == kind)
        // Told as soon as the bytes seen can tell, never wrongly before.
        for end in 0..<bytes.count {
            let early = FormatSniffer.decide(contentType: nil, name: nil, head: Array(bytes[..<end]), complete: false)
            #expect(early == nil || early == kind, "after \(end) bytes")
        }
        // The feeds' reader is the XML helper's: until it is there, auto hands feeds to a reader that refuses them.
        if kind != .atom, kind != .rss {
            #expect(try decided(body) == kind)
            #expect(try decided(body, chunk: 1) == kind)
        }
    }

    @Test func theContentTypeTellsFirstThenTheName() throws {
        #expect(try decided("text\nx\n", contentType: "text/csv; charset=utf-8") == .csv)
        #expect(try decided("[]", contentType: "application/vnd.api+json") == .json)
        #expect(try decided("a\n", contentType: "text/plain", name: "https://x.example/q.csv?raw=1") == .csv)
        #expect(try decided("a\n%\n", name: "/usr/share/games/fortunes/art.dat") == .fortune)
        #expect(try decided("[]", name: "quotes.txt") == .json)
        #expect(FormatSniffer.decide(contentType: "application/atom+xml", name: nil, head: [], complete: false) == .atom)
        #expect(FormatSniffer.decide(contentType: "application/rss+xml", name: "x.csv", head: [], complete: false) == .rss)
        #expect(FormatSniffer.decide(contentType: "text/xml", name: nil, head: Array("<rss>".utf8), complete: false) == .rss)
        #expect(try decided("source,id,text,author,category,lang,production,episode\r\nx,1,t,,,,,\r\n") == .csv)
    }

    @Test func itReadsWhatItDecidedAndSaysNothingBefore() throws {
        var reader = AutoReader(settings: ListFormat(kind: .auto), source: "custom.a", contentType: nil, name: nil)
        #expect(reader.format == nil)
        let read = try readList(reader, Array("one\n%\ntwo\n".utf8), chunkSize: 3)
        #expect(read.quotes.map(\.text) == ["one", "two"])
        try Array("x".utf8).withUnsafeBytes { try reader.feed($0) { _ in } }
        #expect(reader.format == nil)
    }
}

/// The fast path a record that is all ASCII takes gives what the String path gives.
@Suite struct FortuneRecordTests {
    @Test(arguments: [
        "", "\n", "  \t\n\n", "one\n", "one  \r\n\t\t-- A\n", "\n\n  first\n\tline\n\nsecond\n %\n    - Seneca\n\n\n",
        "a\n\t--\n", "a\n\t-- \n", "a\n\t---x\n", "a\n\t- -x\n", "a\n-- not indented\n", "\u{0B}\n x\u{0B}\n\n\n\ny\n",
        " %\n", "%%\n", "a\n\n\n\t-- B C\n", "\t\n a \n\t b\t\n",
    ])
    func theASCIIPathIsTheStringPath(record: String) throws {
        let bytes = Array(record.utf8)
        var lines = record.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        lines.removeLast()
        let viaString = FortuneReader.quote(lines)
        let viaBytes = try #require(FortuneRecord.ascii(bytes))
        #expect(viaBytes?.0 == viaString?.0 && viaBytes?.1 == viaString?.1)
    }
}

@Suite struct AutoReaderBlanksTests {
    /// However many blanks come first, auto holds no more than its cap and lines keep their numbers.
    @Test func manyBlankLinesFirstStillTellAndCount() throws {
        let blanks = String(repeating: " \n", count: 100_000)
        let json = try readList(AutoReader(settings: ListFormat(kind: .auto), source: "custom.a", contentType: nil, name: nil),
                                Array((blanks + #"[{"id": 1, "text": "after"}]"#).utf8), chunkSize: 4096)
        #expect(json.quotes.map(\.text) == ["after"] && json.places == [.record(1)])
        let text = try readList(AutoReader(settings: ListFormat(kind: .auto), source: "custom.a", contentType: nil, name: nil),
                                Array((blanks + "a line\n").utf8), chunkSize: 70_000)
        #expect(text.quotes.map(\.text) == ["a line"] && text.places == [.line(100_001)])
    }
}
