import Foundation
import QuoteBase
import Testing
@testable import QuoteStore
@testable import QuoteModels
@testable import QuoteFormats
@testable import QuoteText
import TestSupport

@Suite struct CustomListTests {
    let folder = TemporaryFolder()

    /// The list through `CustomList.Reader`, as a sync and `quotectl import` read it: its good
    /// quotes and its problems, in order.
    func decode(_ text: String) throws -> (quotes: [Quote], problems: [ListProblem]) {
        var reader = CustomList.Reader(source: "custom.t")
        var quotes: [Quote] = [], problems: [ListProblem] = []
        let take = { (record: ListRecord) in
            switch record {
            case .quote(let entry): quotes.append(entry.quote)
            case .problem(let problem): problems.append(problem)
            }
        }
        try Array(text.utf8).withUnsafeBytes { bytes in try reader.feed(bytes, take) }
        try reader.finish(take)
        return (quotes, problems)
    }

    @Test func decodesTheGistFormat() throws {
        let decoded = try decode(#"[{"id": 1, "category": "life", "text": "Be yourself.", "source": "Oscar Wilde"}, {"id": 2, "text": " 행복 ", "category": null}]"#)
        #expect(decoded.problems.isEmpty)
        #expect(decoded.quotes.count == 2)
        #expect(decoded.quotes[0].author == "Oscar Wilde")
        #expect(decoded.quotes[0].lang == "en")
        #expect(decoded.quotes[1].text == "행복")
        #expect(decoded.quotes[1].lang == "ko")
        #expect(decoded.quotes[1].category == nil)
    }

    @Test(arguments: [
        (#"[{"id": 1, "text": 5}]"#, "\"text\" must be a string"),
        (#"[{"id": true, "text": "x"}]"#, "\"id\" must be an integer or a short string"),
        (#"[{"id": 1.5, "text": "x"}]"#, "\"id\" must be an integer or a short string"),
        (#"[{"id": "", "text": "x"}]"#, "\"id\" must be an integer or a short string"),
        ("[{\"id\": \"" + String(repeating: "i", count: 257) + "\", \"text\": \"x\"}]", "\"id\" must be an integer or a short string"),
        (#"[{"text": "x"}]"#, "missing \"id\""),
        (#"[{"id": 1, "text": "   "}]"#, "\"text\" is empty"),
        (#"[{"id": 1}]"#, "missing \"text\""),
        (#"[{"id": 1, "text": "x", "source": ["a"]}]"#, "\"source\" must be a string"),
        (#"["just a string"]"#, "expected an object"),
    ])
    func badRecordsAreNamedAndLeftOut(text: String, reason: String) throws {
        let decoded = try decode(text)
        let problem = try #require(decoded.problems.first)
        #expect(problem.description.contains(reason), "\(problem)")
        #expect(problem.description.hasPrefix("record "))
    }

    /// A repeated id is the store's to find (`ListMerge`; the sync's and import's tests name it
    /// "duplicate id"): the reader hands both records over.
    @Test func theReaderLeavesRepeatedIDsToTheStore() throws {
        let decoded = try decode(#"[{"id": 1, "text": "a"}, {"id": 1, "text": "b"}]"#)
        #expect(decoded.problems.isEmpty)
        #expect(decoded.quotes.map(\.upstreamID) == ["1", "1"])
    }

    /// A record that names a member twice is refused alone, naming it (the first value was taken
    /// silently); its id cannot be trusted, so it could be any stored quote and nothing leaves.
    @Test func aRecordNamingAMemberTwiceIsRefusedAlone() throws {
        let decoded = try decode(#"[{"id": 1, "text": "a", "text": "b"}, {"id": 2, "text": "c"}]"#)
        #expect(decoded.quotes.map(\.upstreamID) == ["2"])
        let problem = try #require(decoded.problems.first)
        #expect(problem.description == #"record 1: line 1, column 25: member "text" appears twice in one object"#)
        #expect(problem.upstreamID == nil && problem.couldBeStored)
    }

    @Test func overlongTextIsRefused() throws {
        let long = String(repeating: "가", count: 10_001)
        let decoded = try decode(#"[{"id": 1, "text": "\#(long)"}, {"id": 2, "text": "fine"}]"#)
        #expect(decoded.problems.map(\.place) == [.record(1)])
        #expect(decoded.quotes.map(\.upstreamID) == ["2"])
    }

    @Test func aBodyThatIsNotAListFailsWhole() {
        #expect(throws: ListFailure.self) { try decode(#"{"id": 1}"#) }
        #expect(throws: ListFailure.self) { try decode("<!DOCTYPE html>") }
    }

    @Test func applyingTheSameListTwiceChangesNothing() throws {
        let store = try Store(path: folder.file("q.db"), access: .write)
        let quotes = try decode(#"[{"id": 1, "text": "a"}, {"id": 2, "text": "b"}, {"id": 3, "text": "c"}]"#).quotes
        let writer = QuoteWriter(database: store.database)
        try writer.ensureSource("custom.t", now: 1)
        let first = try writer.apply(quotes, to: "custom.t", removeMissing: true, now: 1)
        #expect(first == ChangeCounts(inserted: 3))
        // Nothing written to the store: not a page of the write-ahead log (the list is staged in the
        // connection's temporary database, which total_changes() would count).
        let log = folder.file("q.db-wal")
        let logBefore = FileReader.size(log)
        let second = try writer.apply(quotes, to: "custom.t", removeMissing: true, now: 2)
        #expect(second == ChangeCounts(unchanged: 3))
        #expect(FileReader.size(log) == logBefore)
        #expect(logBefore != nil)
    }

    @Test func theListIsTheTruthButKeptRecordsSurvive() throws {
        let store = try Store(path: folder.file("q.db"), access: .write)
        let writer = QuoteWriter(database: store.database)
        try writer.ensureSource("custom.t", now: 1)
        try writer.apply(try decode(#"[{"id": 1, "text": "a"}, {"id": 2, "text": "b"}, {"id": 3, "text": "c"}]"#).quotes,
                         to: "custom.t", removeMissing: true, now: 1)
        let next = try decode(#"[{"id": 1, "text": "A"}, {"id": 4, "text": "d"}]"#).quotes
        let counts = try writer.apply(next, to: "custom.t", removeMissing: true, keep: ["3"], now: 2)
        #expect(counts == ChangeCounts(inserted: 1, updated: 1, removed: 1))
        let texts = try store.database.prepare("SELECT group_concat(text, '') FROM (SELECT text FROM quotes WHERE source = 'custom.t' ORDER BY upstream_id)")
        #expect(try texts.step())
        #expect(texts.string(0) == "Acd")
    }
}
