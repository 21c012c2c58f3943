import Foundation
import QuoteBase
import QuoteConfig
@testable import QuoteStore
import QuoteModels
import QuoteText
@testable import QuoteSync
import Testing
import TestSupport

/// U+0000 in upstream text: a record whose text cannot be stored faithfully is skipped with
/// its id named — never cut short at the NUL, never a store failure.
@Suite(.timeLimit(.minutes(10))) struct NulCharacterTests {
    @Test(arguments: [
        (#"{"id": 7, "category": "c", "text": "a\u0000b", "source": "A"}"#, #"record 2 (id 7): "text" contains a NUL"#),
        (#"{"id": 7, "category": "c", "text": "\u0000starts", "source": "A"}"#, #"record 2 (id 7): "text" contains a NUL"#),
        (#"{"id": 7, "category": "c", "text": "fine", "source": "A\u0000B"}"#, #"record 2 (id 7): "source" contains a NUL"#),
        (#"{"id": 7, "category": "c\u0000", "text": "fine", "source": "A"}"#, #"record 2 (id 7): "category" contains a NUL"#),
    ])
    func aCustomListRecordWithANulIsSkippedAndNamed(record: String, expected: String) async throws {
        let body = #"[{"id": 1, "category": "c", "text": "one", "source": "A"}, "# + record + #", {"id": 2, "category": "c", "text": "two", "source": "A"}]"#
        let harness = try SyncHarness { _ in .json(body) }
        let report = await harness.sync(harness.settings(.custom, path: "/list"))
        #expect(report.ok, "\(report.summary)")
        #expect(report.summary.contains(expected), "\(report.summary)")
        #expect(report.counts.inserted == 2)
        #expect(report.counts.skipped == 1)
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.test' AND upstream_id = '7'") == 0)
        #expect(try harness.state("custom.test").failures == 0)
    }

    @Test func aHappinessQuoteWithANulIsSkippedAndNamed() async throws {
        let harness = try SyncHarness { _ in .json(happiness(id: 60, content: #"\u0000행복"#)) }
        let report = await harness.sync(harness.settings(.happiness, path: "/happiness/random-quote"))
        #expect(report.ok, "\(report.summary)")
        #expect(report.summary == #"0 quotes, 1 skipped (id 60: "content" contains a NUL character (U+0000))"#, "\(report.summary)")
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'happiness'") == 0)
    }

    /// Text with a NUL inside is bound by its length: what goes in comes out whole.
    @Test func textIsBoundByItsByteLength() throws {
        let folder = TemporaryFolder()
        let store = try Store(path: folder.file("q.db"), access: .write)
        let statement = try store.database.prepare("SELECT ?1, length(CAST(?1 AS BLOB)), ?2 = ''")
        try statement.bind("a\u{0}b\u{0}", at: 1)
        try statement.bind("", at: 2)
        #expect(try statement.step())
        #expect(statement.string(0) == "a\u{0}b\u{0}")
        #expect(statement.int(1) == 4)
        #expect(statement.int(2) == 1)  // an empty text is '' — not NULL
    }

    /// Were a row refused by the store's rules anyway, that is the upstream's failure
    /// (counted, retried with backoff), not a broken store's.
    @Test func aConstraintTheUpstreamBreaksIsTheUpstreamsFailure() async throws {
        let harness = try SyncHarness { _ in .json(listJSON([(1, "one")])) }
        let settings = harness.settings(.custom, path: "/list")
        #expect(await harness.sync(settings).ok)
        let before = try harness.snapshot()
        // Validation should make this impossible; a rule added under the engine stands in for a gap in it.
        try harness.database().execute("CREATE TRIGGER refuse BEFORE INSERT ON quotes WHEN NEW.text = 'two' BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: refused'); END")
        harness.server.answer { _ in .json(listJSON([(1, "one"), (2, "two")])) }
        let report = await harness.sync(settings)
        #expect(!report.ok)
        #expect(report.storeExitCode == nil, "\(report)")
        #expect(report.summary.hasPrefix("the upstream sent data the store refuses"), "\(report.summary)")
        #expect(!report.summary.contains("\n") && !report.summary.contains("INSERT"))
        #expect(try harness.state("custom.test").failures == 1)
        #expect(try harness.snapshot() == before)
    }
}
