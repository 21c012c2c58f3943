import Foundation
import QuoteBase
import QuoteConfig
import QuoteScheduling
@testable import QuoteStore
import QuoteModels
import QuoteText
@testable import QuoteSync
import Testing
import TestSupport

/// A list kept as an archive (`archive = true`, a feed's default) keeps what the upstream
/// dropped; one that is not is the truth, behind the shrink guard. And a quote's date is stored,
/// compared, and changes nothing for a quote without one.
@Suite(.timeLimit(.minutes(10))) struct ListArchiveAndDateTests {
    typealias Case = ListFormatCase

    func harness(_ items: [Case.Item], format: Case = .json) throws -> SyncHarness {
        try SyncHarness { _ in .json(format.render(items)) }
    }

    func settings(_ harness: SyncHarness, archive: Bool?, format: ListFormat = .json) -> SourceSettings {
        var settings = harness.settings(.custom, path: "/list")
        settings.listFormat = format
        settings.listFormat.archive = archive
        return settings
    }

    @Test func anArchiveKeepsWhatTheUpstreamDropped() async throws {
        // Yesterday's quote of the day, then today's alone.
        let harness = try harness([.quote(id: 1, text: "yesterday", published: 1_796_083_200)])
        let settings = settings(harness, archive: true)
        #expect(await harness.sync(settings).counts.inserted == 1)
        harness.server.answer { _ in .json(Case.json.render([.quote(id: 2, text: "today", published: 1_796_169_600)])) }
        let today = await harness.sync(settings)
        #expect(today.ok, "\(today.summary)")
        #expect(today.counts == ChangeCounts(inserted: 1, removed: 0))
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.test'") == 2)
    }

    @Test func withoutArchiveTheDroppedQuoteGoes() async throws {
        let harness = try harness(Case.quotes(1...2))
        let settings = settings(harness, archive: false)
        _ = await harness.sync(settings)
        harness.server.answer { _ in .json(Case.json.render(Case.quotes(2...2))) }
        let report = await harness.sync(settings)
        #expect(report.counts.removed == 1, "\(report.summary)")
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.test'") == 1)
    }

    @Test func theShrinkGuardRefusesAListButNeverAnArchive() async throws {
        let harness = try harness(Case.quotes(1...12))
        let list = settings(harness, archive: false)
        #expect(await harness.sync(list).counts.inserted == 12)
        let before = try harness.snapshot()
        harness.server.answer { _ in .json(Case.json.render(Case.quotes(12...12))) }
        let refused = await harness.sync(list)
        #expect(!refused.ok)
        #expect(refused.summary.contains("allow_shrink"), "\(refused.summary)")
        #expect(try harness.snapshot() == before)
        let archive = await harness.sync(settings(harness, archive: true))
        #expect(archive.ok, "\(archive.summary)")
        #expect(archive.counts.removed == 0)
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.test'") == 12)
        harness.server.answer { _ in .json("[]") }
        let empty = await harness.sync(settings(harness, archive: true))
        #expect(empty.ok, "an archive whose feed is empty loses nothing: \(empty.summary)")
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.test'") == 12)
    }

    @Test func aDateIsStoredAndAChangedDateIsAChange() async throws {
        let harness = try harness([.quote(id: 1, text: "dated", published: 1_796_083_200), .quote(id: 2, text: "undated", published: nil)])
        let settings = settings(harness, archive: nil)
        #expect(await harness.sync(settings).counts.inserted == 2)
        let database = try harness.database()
        #expect(try database.scalarInt("SELECT published FROM quotes WHERE upstream_id = '1'") == 1_796_083_200)
        #expect(try database.scalarInt("SELECT published IS NULL FROM quotes WHERE upstream_id = '2'") == 1)
        harness.server.answer { _ in
            .json(Case.json.render([.quote(id: 1, text: "dated", published: 1_796_083_260), .quote(id: 2, text: "undated", published: nil)]))
        }
        let moved = await harness.sync(settings)
        #expect(moved.counts == ChangeCounts(updated: 1, unchanged: 1), "\(moved.summary)")
        #expect(try harness.database().scalarInt("SELECT published FROM quotes WHERE upstream_id = '1'") == 1_796_083_260)
    }

    /// In quotectl's export shape (a hub's feed), a date that is none (a word, out of RFC 3339's
    /// years) is the record's problem, named; a Gist's own `published` never was (ReaderEdgesTests).
    @Test(arguments: [#""yesterday""#, "true", "253402300800", #""2026-02-30T00:00:00Z""#, #""2026-12-01 00:00:00""#])
    func aBadDateSkipsItsRecord(date: String) async throws {
        let body = #"[{"id": 1, "text": "one", "author": "A", "published": \#(date)}, {"id": 2, "text": "two", "author": "B"}]"#
        let harness = try SyncHarness { _ in .json(body) }
        let report = await harness.sync(settings(harness, archive: nil))
        #expect(report.ok, "\(report.summary)")
        #expect(report.counts.skipped == 1)
        #expect(report.summary.contains(#"record 1 (id 1): "published""#), "\(report.summary)")
    }
}

/// A list whose ids derive from the text: a record whose text is refused is no stored quote, so
/// it does not stop the list from removing what it dropped; one whose text is good but another
/// field is not keeps its stored quote.
@Suite(.timeLimit(.minutes(10))) struct DerivedIDProblemsTests {
    func sync(_ harness: SyncHarness, _ body: String) async -> SourceReport {
        harness.server.answer { _ in TestUpstream.Response(headers: [("Content-Type", "text/plain")], body: Array(body.utf8)) }
        var settings = harness.settings(.custom, path: "/list")
        settings.listFormat = ListFormat(kind: .fortune)
        return await harness.sync(settings)
    }

    @Test func aRefusedTextDoesNotStopRemovals() async throws {
        let harness = try SyncHarness { _ in .status(404) }
        #expect(await sync(harness, "one\n%\ntwo\n%\nthree\n").counts.inserted == 3)
        let tooLong = String(repeating: "x", count: 10_001)
        let report = await sync(harness, "one\n%\ntwo\n%\n\(tooLong)\n")
        #expect(report.ok, "\(report.summary)")
        #expect(report.counts.removed == 1, "\(report.summary)")
        #expect(report.summary.contains("line 5"), "\(report.summary)")
    }

    @Test func aGoodTextWithABadAuthorKeepsItsStoredQuote() async throws {
        let harness = try SyncHarness { _ in .status(404) }
        #expect(await sync(harness, "one\n%\ntwo\n").counts.inserted == 2)
        let report = await sync(harness, "one\n%\ntwo\n\t-- bad\u{0}author\n")
        #expect(report.ok, "\(report.summary)")
        #expect(report.counts.removed == 0, "\(report.summary)")
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.test'") == 2)
    }
}
