import Testing
@testable import QuoteStore
@testable import QuoteModels
@testable import QuoteFormats
import TestSupport

/// A fortune file laid out by hand (ASCII art, verse, dialogue) goes into the store and comes back
/// out of `quotectl export --format fortune` byte for byte: every record as written, never
/// rewrapped, as fortune prints it.
@Suite(.computing) struct FortuneExportTests {
    let folder = TemporaryFolder()

    func exported(_ quotes: [Quote]) throws -> String {
        let store = try Store(path: folder.file("q.db"), access: .write)
        let writer = QuoteWriter(database: store.database)
        try writer.ensureSource("custom.f", now: 1_714_521_600)
        try writer.apply(quotes, to: "custom.f", removeMissing: true, now: 1_714_521_600)
        var exported = ""
        var export = QuoteExport(format: .fortune, name: "custom.f") { exported += $0 }
        try store.quotes.forEach(source: "custom.f") { export.add($0) }
        export.finish()
        return exported
    }

    @Test func aPreformattedFileRoundTripsByteForByte() throws {
        let bytes = try fixtureBytes("lists/preformatted.fortune")
        let read = try readList(FortuneReader(source: "custom.f"), bytes)
        #expect(read.problems.isEmpty && read.quotes.count == 6)
        #expect(read.quotes.first?.text == "\t\t  /\\_/\\\n\t\t ( o.o )\n\t\t  > ^ <\t\tmeow")
        #expect(read.quotes.map(\.author) == [nil, nil, "Anonymous", "An old riddle", nil, "fortune(6)"])
        #expect(try exported(read.quotes) == String(decoding: bytes, as: UTF8.self))
        for size in [1, 7, 64] {
            #expect(try readList(FortuneReader(source: "custom.f"), bytes, chunkSize: size) == read, "chunks of \(size)")
        }
    }

    /// A JSON list's text keeps its line breaks and its first line's indentation into the export.
    @Test func aJSONTextExportsItsLinesAsTheyAre() throws {
        let list = #"[{"id": 1, "text": "  (\\_/)\n  (o.o)  boo\n\n  (> <)", "source": "Bunny"}, {"id": 2, "text": "%\nlone", "source": "P"}]"#
        let read = try readList(CustomList.Reader(source: "custom.f"), Array(list.utf8))
        #expect(read.quotes.map(\.text) == ["  (\\_/)\n  (o.o)  boo\n\n  (> <)", "%\nlone"])
        #expect(try exported(read.quotes) == "  (\\_/)\n  (o.o)  boo\n\n  (> <)\n\t\t-- Bunny\n%\n %\nlone\n\t\t-- P\n%\n")
    }
}
