import Testing
@testable import QuoteStore
@testable import QuoteModels
@testable import QuoteFormats
import TestSupport

/// `quotectl export --format atom` reads back through `FeedReader`: every quote, its text,
/// author and category, whatever characters they hold.
@Suite(.computing) struct AtomExportTests {
    let folder = TemporaryFolder()

    static let quotes = [
        Quote(source: "custom.t", upstreamID: "1", text: "Tags <b>stay</b> text & \"entities\" too: &amp; ]]>", author: "A <b> & C",
              category: "markup"),
        Quote(source: "custom.t", upstreamID: "id with spaces/and%", text: "First line.\nSecond line.", author: nil),
        Quote(source: "custom.t", upstreamID: "3", text: "행복은 내면에서 오지 않고 사이에서 온다.", author: "Jonathan Haidt"),
        Quote(source: "custom.t", upstreamID: "4", text: "A bell\u{7} and a form feed\u{C} are not XML", author: "Control"),
    ]

    @Test func anAtomExportReadsBack() throws {
        let store = try Store(path: folder.file("q.db"), access: .write)
        let writer = QuoteWriter(database: store.database)
        try writer.ensureSource("custom.t", now: 1_714_521_600)
        try writer.apply(Self.quotes, to: "custom.t", removeMissing: true, now: 1_714_521_600)
        var exported = ""
        var export = QuoteExport(format: .atom, name: "custom.t") { exported += $0 }
        try store.quotes.forEach(source: "custom.t") { export.add($0) }
        export.finish()
        #expect(export.count == 4)
        let read = try FeedRead(exported, format: ListFormat(kind: .atom))
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.format == .atom)
        let byText = Dictionary(uniqueKeysWithValues: read.quotes.map { ($0.text, $0) })
        for quote in Self.quotes {
            let text = quote.text.replacing("\u{7}", with: "\u{FFFD}").replacing("\u{C}", with: "\u{FFFD}")
            let back = try #require(byText[text], "\(text) in \(exported)")
            #expect(back.author == quote.author)
            #expect(back.category == quote.category)
            #expect(back.upstreamID == "quoted:custom.t/" + AtomExport.iri(quote.upstreamID))
            #expect(!read.derived.contains(true))
        }
        #expect(exported.contains("<updated>2024-05-01T00:00:00Z</updated>"))
    }

    /// Nothing found is exit 66 with nothing on stdout: no empty feed (nor `[]`, nor a lone CSV
    /// header) that a reader would take for a list that was emptied.
    @Test func anExportThatFindsNothingWritesNothing() throws {
        let store = try Store(path: folder.file("q.db"), access: .write)
        for format in ExportFormat.allCases {
            var exported = ""
            var export = QuoteExport(format: format, name: "custom.none") { exported += $0 }
            try store.quotes.forEach(source: "custom.none") { export.add($0) }
            export.finish()
            #expect(export.count == 0)
            #expect(exported.isEmpty, "\(format): \(exported)")
        }
    }
}
