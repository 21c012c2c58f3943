import Testing
import TestSupport
@testable import QuoteModels
@testable import QuoteFormats
import QuoteText

/// What a read of a hostile or odd list must not do: grow with markup, hide a removal behind a
/// record that can be no stored quote, take a data row for a header, refuse a Gist's own fields,
/// or keep a date it could not write back.
@Suite(.computing) struct ReaderEdgesTests {
    func atom(_ content: String) -> [UInt8] {
        Array(("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>1</id>"
               + "<content type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\">\(content)</div></content></entry></feed>").utf8)
    }

    @Test func xhtmlLineBreaksAreCountedAndNeverRepeated() throws {
        let breaks = String(repeating: "<br/>", count: 300_000)
        let read = try readList(FeedReader(source: "custom.f", format: ListFormat(kind: .atom)), atom("a" + breaks + "b" + breaks), chunkSize: 65_536)
        #expect(read.problems.isEmpty)
        #expect(read.quotes.map(\.text) == ["a\nb"])
    }

    @Test func xhtmlStylesAndScriptsAreNoText() throws {
        let read = try readList(FeedReader(source: "custom.f", format: ListFormat(kind: .atom)),
                                atom("<style>p{color:red}</style><p>Quote</p><script>alert(1)</script>"))
        #expect(read.quotes.map(\.text) == ["Quote"])
    }

    @Test func aRecordTooLongInADerivedListCannotBeAStoredQuote() throws {
        let long = String(repeating: "x", count: 2 << 20)
        for reader in [FortuneReader(source: "custom.f") as any ListReader, TextReader(source: "custom.t"), CSVReader(source: "custom.c")] {
            let body = reader is CSVReader ? "text\n\(long)\nfine\n" : reader is TextReader ? "\(long)\nfine\n" : "\(long)\n%\nfine\n"
            let read = try readList(reader, Array(body.utf8), chunkSize: 16_384)
            #expect(read.problems.count == 1 && read.problems.first?.couldBeStored == false, "\(type(of: reader))")
            #expect(read.quotes.map(\.text) == ["fine"], "\(type(of: reader))")
        }
        // With an id column, a row too long to read could be any stored quote.
        let withIDs = try readList(CSVReader(source: "custom.c"), Array("id,text\n1,\(long)\n2,fine\n".utf8))
        #expect(withIDs.problems.first?.couldBeStored == true)
    }

    @Test func aCSVHeaderThatCannotBeReadIsNoCSV() throws {
        let wide = String(repeating: "a,", count: 5_000) + "text\n1,2\n"
        #expect(throws: ListFailure.self) { try readList(CSVReader(source: "custom.c"), Array(wide.utf8)) }
        let long = String(repeating: "x", count: 2 << 20) + "\ntext\nquote\n"
        #expect(throws: ListFailure.self) { try readList(CSVReader(source: "custom.c"), Array(long.utf8)) }
    }

    @Test func aGistsOwnPublishedIsNoReasonToRefuseItsQuote() throws {
        let gist = #"[{"id": 1, "text": "a", "source": "X", "published": "2019-05-01"}, {"id": 2, "text": "b", "published": 1.5}]"#
        let read = try readList(CustomList.Reader(source: "custom.g"), Array(gist.utf8))
        #expect(read.problems.isEmpty)
        #expect(read.quotes.map(\.published) == [nil, nil])
        // quotectl's export (and a hub's feed) wrote its date: one it cannot read is a problem.
        let export = #"[{"id": 1, "text": "a", "author": "X", "published": "2019-05-01"}]"#
        #expect(try readList(CustomList.Reader(source: "custom.g"), Array(export.utf8)).problems.count == 1)
    }

    /// The entry is kept without its date (QuoteBaseTests' FeedDateTests has the dates themselves).
    @Test(arguments: ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:60Z", "9999-12-31T23:00:00-02:00"])
    func aDateOutsideWhatCanBeWrittenBackIsNone(text: String) throws {
        let feed = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>1</id><title>Quote</title>"
            + "<published>\(text)</published></entry></feed>"
        let read = try readList(FeedReader(source: "custom.f", format: ListFormat(kind: .atom)), Array(feed.utf8))
        #expect(read.quotes.map(\.text) == ["Quote"])
        #expect(read.quotes.map(\.published) == [nil])
    }
}
