import Foundation
import Testing
@testable import QuoteModels
@testable import QuoteFormats
@testable import QuoteText
import TestSupport

/// JSON lists read by field mapping (`items =`, `fields =`) through the one factory, as a sync and
/// `quotectl import` read them: the imitated bodies of three real APIs with the mappings
/// quoted.conf(5) gives, fed in chunks of every size.
@Suite(.computing) struct MappedListTests {
    struct Read: Equatable {
        var quotes: [Quote] = []
        var derived: [Bool] = []
        var problems: [String] = []
    }

    static func format(items: String = "", fields: String? = nil) throws -> ListFormat {
        var format = ListFormat(kind: .json)
        format.items = items
        if let fields { format.fields = try ListFormat.parseFields(fields) }
        return format
    }

    /// The body through `ListReaders.reader(for:)`, in chunks of `chunk` bytes (0: whole).
    static func read(_ body: [UInt8], _ format: ListFormat, chunk: Int = 0) throws -> Read {
        var reader = try ListReaders.reader(for: format, source: "custom.t")
        var read = Read()
        let take = { (record: ListRecord) in
            switch record {
            case .quote(let entry):
                read.quotes.append(entry.quote)
                read.derived.append(entry.idIsDerived)
            case .problem(let problem): read.problems.append(problem.description)
            }
        }
        let size = chunk > 0 ? chunk : max(1, body.count)
        for start in stride(from: 0, to: body.count, by: size) {
            try body[start..<min(body.count, start + size)].withUnsafeBytes { try reader.feed($0, take) }
        }
        try reader.finish(take)
        return read
    }

    static func read(_ text: String, _ format: ListFormat) throws -> Read { try read(Array(text.utf8), format) }

    /// Every chunk size gives what the whole body gives.
    static func readInEveryChunkSize(_ fixture: String, _ format: ListFormat) throws -> Read {
        let body = Array(Fixtures.text("imitated/" + fixture).utf8)
        let whole = try read(body, format)
        for size in 1...body.count {
            #expect(try read(body, format, chunk: size) == whole, "\(fixture) in chunks of \(size)")
        }
        return whole
    }

    static func derivedID(_ text: String) -> String { String(FNV1a.hash(text).value, radix: 16) }

    @Test func zenQuotesByItsDocumentedMapping() throws {
        let read = try Self.readInEveryChunkSize("zenquotes.json", Self.format(fields: "text:q, author:a"))
        #expect(read.problems.isEmpty)
        #expect(read.quotes.count == 5)
        #expect(read.quotes[0].text == "The unexamined life is not worth living.")
        #expect(read.quotes[0].author == "Socrates")
        #expect(read.quotes[3].lang == "ko")
        #expect(read.quotes[4].text == #"He who has a "why" to live can bear almost any "how"."#)
        // No ids in ZenQuotes: each is derived from the text as a fortune file's are.
        #expect(read.derived == Array(repeating: true, count: 5))
        #expect(read.quotes.map(\.upstreamID) == read.quotes.map { Self.derivedID($0.text) })
        #expect(read.quotes.allSatisfy { $0.category == nil })
    }

    @Test func quotableByItsDocumentedMapping() throws {
        let read = try Self.readInEveryChunkSize("quotable.json", Self.format(items: "/results", fields: "id:_id, text:content, author:author, category:tags"))
        #expect(read.problems.isEmpty)
        #expect(read.quotes.map(\.upstreamID) == ["bfG6OsUVoRrz", "5tNgKj7Vh3AB", "q-9AZx1b_3cE"])
        #expect(read.quotes.map(\.category) == ["Famous Quotes, Wisdom", "Inspirational", nil])
        #expect(read.quotes[1].author == "Confucius")
        #expect(read.derived == [false, false, false])
    }

    @Test func dummyJSONByItsDocumentedMapping() throws {
        let read = try Self.readInEveryChunkSize("dummyjson.json", Self.format(items: "/quotes", fields: "id:id, text:quote, author:author"))
        #expect(read.problems.isEmpty)
        #expect(read.quotes.map(\.upstreamID) == ["1", "2", "3", "4"])
        #expect(read.quotes[2].text == "Strive not to be a success, but rather to be of value.")
        #expect(read.quotes[3].author == "Steve Jobs")
    }

    @Test func theHappinessShapeIsAListOfOne() throws {
        let read = try Self.read(#"{"data": {"id": 60, "content": "행복은 습관이다.", "author": "H. Jackson Brown"}}"#,
                                 Self.format(items: "/data", fields: "id:id, text:content"))
        #expect(read.quotes.map(\.upstreamID) == ["60"])
        #expect(read.quotes.first?.author == "H. Jackson Brown")  // author: its own name, unmapped
        #expect(read.quotes.first?.lang == "ko")
        // A mapped top-level object is a list of one too; the Gist's list must still be an array.
        #expect(try Self.read(#"{"q": "x"}"#, Self.format(fields: "text:q")).quotes.map(\.text) == ["x"])
        let failure = #expect(throws: ListFailure.self) { try Self.read(#"{"q": "x"}"#, Self.format()) }
        #expect(failure?.reason == "not a JSON array of quotes (found an object)")
    }

    @Test(arguments: [
        (#"[{"q": "  ", "a": "x"}]"#, "text:q, author:a", #"record 1: "q" (text) is empty"#),
        (#"[{"a": "x"}]"#, "text:q, author:a", #"record 1: missing "q" (text)"#),
        (#"[{"q": "x", "a": 5}]"#, "text:q, author:a", #"record 1 (id \#(MappedListTests.derivedID("x"))): "a" (author) must be a string, found a number"#),
        (#"[{"q": "x", "tags": [1]}]"#, "text:q, category:tags", #""tags" (category) must be a string or an array of strings, found an array holding a number"#),
        (#"[{"q": "x", "tags": {"a": 1}}]"#, "text:q, category:tags", #""tags" (category) must be a string, found an object"#),
        (#"[{"q": "x", "tags": ["a\u0000"]}]"#, "text:q, category:tags", #""tags" (category) contains a NUL character"#),
        (#"[{"q": "x"}]"#, "id:_id, text:q", #"record 1: missing "_id" (id)"#),
        (#"[{"q": "x", "_id": [1]}]"#, "id:_id, text:q", #"record 1: "_id" (id) must be an integer or a short string, found an array"#),
        (#"[{"q": "x", "_id": ""}]"#, "id:_id, text:q", #""_id" (id) must be an integer or a short string, found a string"#),
        (#"[{"text": "", "id": 7}]"#, "id:id", #"record 1 (id 7): "text" is empty"#),
        (#"[{"q": "x", "author": {"name": 3}}]"#, "text:q, author:/author/name", #""/author/name" (author) must be a string, found a number"#),
        (#"[7]"#, "text:q", "record 1: expected an object, found a number"),
    ])
    func problemsNameTheMappedField(body: String, fields: String, reason: String) throws {
        let read = try Self.read(body, Self.format(fields: fields))
        #expect(read.quotes.isEmpty)
        #expect(read.problems.count == 1)
        #expect(read.problems.first?.contains(reason) == true, "\(read.problems)")
    }

    @Test func aMemberMayBeAPointerInsideTheItem() throws {
        let read = try Self.read(#"[{"quote": {"body": "x", "by": {"name": "Seneca"}}, "meta": {"ids": [4, 5]}}]"#,
                                 Self.format(fields: "text:/quote/body, author:/quote/by/name, id:/meta/ids/1"))
        #expect(read.problems.isEmpty)
        #expect(read.quotes.first?.author == "Seneca")
        #expect(read.quotes.first?.upstreamID == "5")
    }

    /// With a derived id, a repeat is the same quote (the writer takes it once) and an edit is a new id.
    @Test func derivedIDsFollowTheText() throws {
        let read = try Self.read(#"[{"q": "a"}, {"q": " a "}, {"q": "b"}]"#, Self.format(fields: "text:q"))
        #expect(read.quotes.map(\.upstreamID) == [Self.derivedID("a"), Self.derivedID("a"), Self.derivedID("b")])
        #expect(read.derived == [true, true, true])
        // The same derivation a fortune file's quotes get: a list keeps its ids across formats.
        #expect(try readList(FortuneReader(source: "custom.t"), Array("a\n%\n".utf8)).quotes.first?.upstreamID == Self.derivedID("a"))
    }

    /// Without `fields`, today's rule exactly: `source` is the author, the export's `author` too.
    @Test func withoutFieldsTheGistsShapeIsRead() throws {
        let read = try Self.read(#"[{"id": 1, "text": "x", "source": "S", "category": "c"}, {"id": "b2", "text": "y", "author": "A", "source": "film"}]"#, Self.format())
        #expect(read.quotes.map(\.author) == ["S", "A"])
        #expect(read.quotes.map(\.upstreamID) == ["1", "b2"])
        #expect(read.derived == [false, false])
    }

    @Test(arguments: [
        (#"{"quotes": []}"#, "/results", #"not at items /results: found an object with no member "results""#),
        (#"{"results": 5}"#, "/results", "not at items /results: found a number, not an array or an object"),
        (#"{"results": [1"#, "/results", "not JSON: line 1, column 15: unexpected end of input"),
        ("[1]", "results", #"items: "results" is not a JSON Pointer: it must start with '/' (or be empty: the whole document)"#),
    ])
    func aListNotWhereItemsPointsFailsWhole(body: String, items: String, reason: String) throws {
        let failure = #expect(throws: ListFailure.self) { try Self.read(body, Self.format(items: items, fields: "text:q")) }
        #expect(failure?.reason == reason)
    }

    @Test func fieldsAreParsedOnce() throws {
        #expect(try ListFormat.parseFields("text:q, author:a") == [.text: "q", .author: "a"])
        #expect(try ListFormat.parseFields(" id : _id ,text:content,author:author, category:tags ")
                == [.id: "_id", .text: "content", .author: "author", .category: "tags"])
        #expect(try ListFormat.parseFields("text:a:b, author:/x~1y") == [.text: "a:b", .author: "/x~1y"])
    }

    @Test(arguments: [
        ("", "names no field"), ("   ", "names no field"), ("text", #""text": expected field:member"#),
        ("quote:q", #""quote:q": 'quote' is no field (fields: id, text, author, category)"#), (":q", "no field named"),
        ("text:q, text:r", "text is named twice"), ("text:q, author:q", #""q" is named for both text and author"#),
        ("text:", #""text:": no member named for text"#), ("text:q,,author:a", "an empty part"), ("text:q,", "an empty part"),
        ("text:/~2", #""text:/~2": "/~2" is not a JSON Pointer"#), ("text:q\u{0}", "no control characters"),
        ("Text:q", "'Text' is no field"), (String(repeating: "text:q,", count: 600), "longer than 4096 bytes"),
    ])
    func badFieldsAreNamed(text: String, reason: String) {
        let error = #expect(throws: ListFormat.FieldsError.self) { try ListFormat.parseFields(text) }
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }
}
