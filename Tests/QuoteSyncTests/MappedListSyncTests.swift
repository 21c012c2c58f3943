import Foundation
import QuoteBase
import QuoteConfig
@testable import QuoteStore
import QuoteModels
import QuoteText
@testable import QuoteSync
import Testing
import TestSupport

/// A JSON API read by field mapping syncs with every promise a Gist's list keeps: conditional
/// requests (a 304 writes nothing), the list as the truth, a list not where `items` points
/// failing whole with every row kept.
@Suite(.timeLimit(.minutes(10))) struct MappedListSyncTests {
    static let quotable = Fixtures.text("imitated/quotable.json")

    func settings(_ harness: SyncHarness, items: String = "", fields: String, archive: Bool? = nil) throws -> SourceSettings {
        var settings = harness.settings(.custom, path: "/quotes")
        settings.listFormat.items = items
        settings.listFormat.fields = try ListFormat.parseFields(fields)
        settings.listFormat.archive = archive
        return settings
    }

    @Test func aQuotablePageSyncsThenA304WritesNothing() async throws {
        let harness = try SyncHarness { request in
            if request.headers["if-none-match"] == "\"p1\"" { return .status(304, headers: [("ETag", "\"p1\"")]) }
            return .json(Self.quotable, headers: [("ETag", "\"p1\""), ("Content-Type", "application/json; charset=utf-8")])
        }
        let settings = try settings(harness, items: "/results", fields: "id:_id, text:content, author:author, category:tags")
        let first = await harness.sync(settings)
        #expect(first.ok, "\(first.summary)")
        #expect(first.counts.inserted == 3)
        let database = try harness.database()
        #expect(try database.scalarString("SELECT category FROM quotes WHERE source = 'custom.test' AND upstream_id = 'bfG6OsUVoRrz'") == "Famous Quotes, Wisdom")
        #expect(try database.scalarString("SELECT author FROM quotes WHERE source = 'custom.test' AND upstream_id = '5tNgKj7Vh3AB'") == "Confucius")
        let before = try harness.snapshot()

        let second = await harness.sync(settings)
        #expect(second.ok, "\(second.summary)")
        #expect(second.httpStatus == 304)
        #expect(second.counts.changed == 0)
        #expect(harness.server.requests.last?.headers["if-none-match"] == "\"p1\"")
        #expect(try harness.snapshot() == before)
    }

    /// Ids derived from the text: a repeat is one quote (no duplicate id), an edit is a new quote.
    @Test func derivedIDsMakeAnEditANewQuoteAndARepeatNoDuplicate() async throws {
        let first = #"[{"q": "One.", "a": "A"}, {"q": "Two.", "a": "B"}, {"q": "One.", "a": "A"}]"#
        let harness = try SyncHarness { _ in .json(first) }
        let settings = try settings(harness, fields: "text:q, author:a")
        let report = await harness.sync(settings)
        #expect(report.ok, "\(report.summary)")
        #expect(report.counts.inserted == 2)
        #expect(!report.summary.contains("duplicate"), "\(report.summary)")
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.test'") == 2)

        harness.server.answer { _ in .json(#"[{"q": "One.", "a": "A"}, {"q": "Two!", "a": "B"}]"#) }
        let edited = await harness.sync(settings)
        #expect(edited.ok, "\(edited.summary)")
        #expect(edited.counts.inserted == 1)
        #expect(edited.counts.removed == 1)
        let id = String(FNV1a.hash("Two!").value, radix: 16)
        #expect(try harness.database().scalarString("SELECT text FROM quotes WHERE source = 'custom.test' AND upstream_id = '\(id)'") == "Two!")
    }

    @Test func aBadRecordIsSkippedAndCountedNamingTheMappedField() async throws {
        let harness = try SyncHarness { _ in .json(#"[{"q": "One.", "a": "A"}, {"q": " ", "a": "B"}, {"q": "Three.", "a": 3}]"#) }
        let report = await harness.sync(try settings(harness, fields: "text:q, author:a"))
        #expect(report.ok, "\(report.summary)")
        #expect(report.counts.inserted == 1)
        #expect(report.summary.contains(#"record 2: "q" (text) is empty"#), "\(report.summary)")
    }

    @Test func aListNotWhereItemsPointsFailsWithEveryRowKept() async throws {
        let harness = try SyncHarness { _ in .json(Self.quotable) }
        let settings = try settings(harness, items: "/results", fields: "id:_id, text:content, author:author, category:tags")
        #expect(await harness.sync(settings).ok)
        let before = try harness.snapshot()
        harness.server.answer { _ in .json(#"{"statusCode": 404, "statusMessage": "The requested resource could not be found"}"#) }
        let report = await harness.sync(settings)
        #expect(!report.ok)
        #expect(report.summary == #"the list is not at items /results: found an object with no member "results""#, "\(report.summary)")
        #expect(try harness.snapshot() == before)
        #expect(try harness.state("custom.test").failures == 1)
    }

    /// The happiness API's shape: one object a day; kept as an archive, yesterday's quote stays.
    @Test func aDailyObjectKeptAsAnArchiveAccumulates() async throws {
        let harness = try SyncHarness { _ in .json(#"{"data": {"id": 60, "content": "Day one.", "author": "A"}}"#) }
        let settings = try settings(harness, items: "/data", fields: "id:id, text:content", archive: true)
        #expect(await harness.sync(settings).counts.inserted == 1)
        harness.server.answer { _ in .json(#"{"data": {"id": 61, "content": "Day two.", "author": "B"}}"#) }
        let report = await harness.sync(settings)
        #expect(report.ok, "\(report.summary)")
        #expect(report.counts.inserted == 1)
        #expect(report.counts.removed == 0)
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.test'") == 2)
    }
}
