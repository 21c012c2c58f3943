import Foundation
import QuoteBase
import QuoteConfig
@testable import QuoteStore
import QuoteModels
import QuoteText
@testable import QuoteSync
import Testing
import TestSupport

/// Every format a custom list can be written in keeps the promises the Gist's JSON list keeps:
/// conditional requests, the size cap (after decompression too), all or nothing, a bad record
/// skipped and named, NUL and control characters, the shrink guard. A format whose reader does
/// not exist yet is left out of the table (`ListFormatCase.readable`).
@Suite(.timeLimit(.minutes(10))) struct FormatPromisesTests {
    typealias Case = ListFormatCase

    func settings(_ harness: SyncHarness, _ format: Case) -> SourceSettings {
        var settings = harness.settings(.custom, path: "/list")
        settings.listFormat = format.format
        return settings
    }

    func serving(_ format: Case, _ items: [Case.Item], headers: [(String, String)] = []) -> TestUpstream.Response {
        TestUpstream.Response(headers: [("Content-Type", format.contentType)] + headers, body: Array(format.render(items).utf8))
    }

    @Test(arguments: Case.readable)
    func aSecondSyncIsConditionalAndA304WritesNothing(format: Case) async throws {
        let items = Case.quotes(1...3)
        let harness = try SyncHarness { request in
            if request.headers["if-none-match"] == "\"v1\"" { return .status(304, headers: [("ETag", "\"v1\"")]) }
            return self.serving(format, items, headers: [("ETag", "\"v1\""), ("Last-Modified", "Tue, 01 Dec 2026 00:00:00 GMT")])
        }
        let settings = settings(harness, format)
        let first = await harness.sync(settings)
        #expect(first.ok, "\(first.summary)")
        #expect(first.counts.inserted == 3, "\(first.summary)")
        if format.format.kind == .auto {
            #expect(first.summary.hasPrefix("read as atom: 3 quotes"), "\(first.summary)")
        }
        let before = try harness.snapshot()
        let second = await harness.sync(settings)
        #expect(second.ok, "\(second.summary)")
        #expect(second.httpStatus == 304)
        #expect(second.counts.changed == 0)
        let request = try #require(harness.server.requests.last)
        #expect(request.headers["if-none-match"] == "\"v1\"")
        #expect(request.headers["if-modified-since"] == "Tue, 01 Dec 2026 00:00:00 GMT")
        #expect(try harness.snapshot() == before)
    }

    /// A body past max_bytes once decompressed (few bytes on the wire) is refused, nothing written.
    @Test(arguments: Case.readable)
    func aCompressionBombOfTheFormatIsRefused(format: Case) async throws {
        let harness = try SyncHarness { _ in self.serving(format, Case.quotes(1...3)) }
        var settings = settings(harness, format)
        settings.maxBytes = 1 << 20
        #expect(await harness.sync(settings).ok)
        let before = try harness.snapshot()
        // A list of the format that goes on, once inflated, with 64 MiB of spaces.
        let list = Array(format.render(Case.quotes(1...50, text: String(repeating: "long quote ", count: 10))).utf8)
        let bomb = Compression.gzipBomb(prefix: Array(list.prefix(list.count * 2 / 3)), inflatedBytes: 64 << 20)
        #expect(bomb.count < settings.maxBytes, "the wire bytes alone stay under the cap")
        harness.server.answer { _ in
            TestUpstream.Response(headers: [("Content-Type", format.contentType), ("Content-Encoding", "gzip")], body: bomb)
        }
        let report = await harness.sync(settings)
        #expect(!report.ok)
        #expect(report.summary.contains("larger than max_bytes"), "\(report.summary)")
        #expect(try harness.snapshot() == before)
        let plain = Array(format.render(Case.quotes(1...10_000, text: String(repeating: "another ", count: 20))).utf8)
        harness.server.answer { _ in TestUpstream.Response(headers: [("Content-Type", format.contentType)], body: plain) }
        #expect(await harness.sync(settings).summary.contains("larger than max_bytes"))
        #expect(try harness.snapshot() == before)
    }

    /// A body cut short, by the connection or mid-record, rolls back: the stored rows as they were.
    @Test(arguments: Case.readable)
    func aBodyCutShortWritesNothing(format: Case) async throws {
        let harness = try SyncHarness { _ in self.serving(format, Case.quotes(1...3)) }
        let settings = settings(harness, format)
        #expect(await harness.sync(settings).ok)
        let before = try harness.snapshot()
        let longer = Array(format.render(Case.quotes(1...40, text: "changed")).utf8)
        let cut = longer.count / 2
        harness.server.answer { _ in
            TestUpstream.Response(headers: [("Content-Type", format.contentType)], body: longer, behaviour: .truncate(afterBytes: cut))
        }
        let lost = await harness.sync(settings)
        #expect(!lost.ok, "\(lost.summary)")
        #expect(try harness.snapshot() == before)
        guard format.structured else { return }
        // The server says the body ends there: the format itself is cut short.
        harness.server.answer { _ in TestUpstream.Response(headers: [("Content-Type", format.contentType)], body: Array(longer.prefix(cut))) }
        let ended = await harness.sync(settings)
        #expect(!ended.ok, "\(ended.summary)")
        #expect(!ended.summary.contains("\n"))
        #expect(try harness.snapshot() == before)
    }

    @Test(arguments: Case.readable)
    func aBadRecordIsSkippedCountedAndNamed(format: Case) async throws {
        let harness = try SyncHarness { _ in self.serving(format, [.bad] + Case.quotes(1...2)) }
        let report = await harness.sync(settings(harness, format))
        #expect(report.ok, "\(report.summary)")
        #expect(report.counts.inserted == 2, "\(report.summary)")
        #expect(report.counts.skipped == 1)
        #expect(report.summary.contains("1 skipped") || report.summary.contains("skipped"), "\(report.summary)")
        #expect(report.summary.contains("(\(format.firstPlace)"), "\(report.summary)")
        #expect(!report.summary.contains("\n"))
    }

    /// A NUL skips its record (named), or, where the format cannot hold one (XML), fails the
    /// body; control characters are kept as they are, as a JSON list's are (shown cleaned).
    @Test(arguments: Case.readable)
    func nulAndControlCharacters(format: Case) async throws {
        let harness = try SyncHarness { _ in self.serving(format, Case.quotes(1...2)) }
        let settings = settings(harness, format)
        #expect(await harness.sync(settings).ok)
        let before = try harness.snapshot()
        harness.server.answer { _ in self.serving(format, [.nul(id: 7)] + Case.quotes(1...2)) }
        let report = await harness.sync(settings)
        if format.carriesControls {
            #expect(report.ok, "\(report.summary)")
            #expect(report.counts.skipped == 1)
            #expect(report.summary.contains("NUL"), "\(report.summary)")
            #expect(report.summary.contains("(\(format.firstPlace)"), "\(report.summary)")
            #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.test'") == 2)
            let escape = "red \u{1B}[31m and bell \u{07}"
            harness.server.answer { _ in self.serving(format, [.quote(id: 5, text: escape, published: nil)] + Case.quotes(1...2)) }
            let controls = await harness.sync(settings)
            #expect(controls.ok, "\(controls.summary)")
            let stored = try harness.database().scalarString("SELECT text FROM quotes WHERE source = 'custom.test' AND text LIKE 'red %'")
            #expect(stored == escape)
        } else {
            #expect(!report.ok, "\(report.summary)")
            #expect(!report.summary.contains("\n"))
            #expect(try harness.snapshot() == before)
        }
    }

    /// `auto` is told the response's Content-Type before the first byte, and the URL's path: the
    /// same bytes read as CSV when served as text/csv or named .csv, as text lines otherwise.
    @Test(arguments: [("text/csv; charset=utf-8", "/list", "csv", 1), ("text/plain", "/quotes.csv?raw=1", "csv", 1),
                      ("text/plain", "/quotes.txt", "text", 2)])
    func autoHearsTheContentTypeAndTheName(contentType: String, path: String, decided: String, quotes: Int) async throws {
        let harness = try SyncHarness { _ in
            TestUpstream.Response(headers: [("Content-Type", contentType)], body: Array("text,author\nhello,A\n".utf8))
        }
        var settings = harness.settings(.custom, path: path)
        settings.listFormat = ListFormat(kind: .auto)
        let report = await harness.sync(settings)
        #expect(report.ok, "\(report.summary)")
        #expect(report.summary.hasPrefix("read as \(decided): \(quotes) quote"), "\(report.summary)")
    }

    /// A list that would lose more than half of 10 or more is refused unless allow_shrink; a feed
    /// kept as an archive removes nothing, so its guard never refuses.
    @Test(arguments: Case.readable)
    func theShrinkGuard(format: Case) async throws {
        let harness = try SyncHarness { _ in self.serving(format, Case.quotes(1...12)) }
        var settings = settings(harness, format)
        #expect(await harness.sync(settings).counts.inserted == 12)
        let before = try harness.snapshot()
        harness.server.answer { _ in self.serving(format, Case.quotes(1...2)) }
        let shrunk = await harness.sync(settings)
        if format.archive {
            #expect(shrunk.ok, "\(shrunk.summary)")
            #expect(shrunk.counts.removed == 0)
            #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.test'") == 12)
            return
        }
        #expect(!shrunk.ok)
        #expect(shrunk.summary.contains("allow_shrink"), "\(shrunk.summary)")
        #expect(try harness.snapshot() == before)
        settings.allowShrink = true
        let allowed = await harness.sync(settings)
        #expect(allowed.ok, "\(allowed.summary)")
        #expect(allowed.counts.removed == 10)
    }
}
