import Foundation
import QuoteBase
import QuoteConfig
import QuoteModels
@testable import QuoteStore
@testable import QuoteSync
import Testing
import TestSupport

/// A custom list that is an Atom or RSS feed, synced: its entries become quotes, and an entry
/// the feed no longer has stays (a feed is a window, not the list).
@Suite(.timeLimit(.minutes(10))) struct FeedSyncTests {
    func settings(_ harness: SyncHarness, kind: ListFormat.Kind) -> SourceSettings {
        var settings = harness.settings(.custom, path: "/feed")
        settings.listFormat = ListFormat(kind: kind)
        settings.listFormat.authorPattern = "~ *([^~]*[^~ ]) *~"
        return settings
    }

    @Test(arguments: [ListFormat.Kind.atom, .rss])
    func aFeedIsSyncedAndKeepsWhatItNoLongerHas(kind: ListFormat.Kind) async throws {
        let feed = Fixtures.text("feeds/wikiquote-qotd." + kind.rawValue)
        let harness = try SyncHarness { _ in .json(feed) }
        let first = await harness.sync(settings(harness, kind: kind))
        #expect(first.ok, "\(first.summary)")
        #expect(first.counts.inserted == 3)
        #expect(try harness.database().scalarString(
            "SELECT author FROM quotes WHERE source = 'custom.test' AND upstream_id LIKE '%20240502000000%'") == "William Blake")
        // The next day's feed has one entry only: the other two stay.
        let tag = kind == .rss ? "<item>" : "<entry>"
        let head = String(feed[..<feed.range(of: tag)!.lowerBound])
        let lastEntry = String(feed[feed.range(of: tag, options: .backwards)!.lowerBound...])
        harness.server.answer { _ in .json(head + lastEntry) }
        let second = await harness.sync(settings(harness, kind: kind))
        #expect(second.ok, "\(second.summary)")
        #expect(second.counts.removed == 0)
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.test'") == 3)
    }

    @Test func aBodyThatIsNotAFeedFailsTheSyncNamingWhy() async throws {
        let harness = try SyncHarness { _ in .json("<!DOCTYPE html><html></html>") }
        let report = await harness.sync(settings(harness, kind: .atom))
        #expect(!report.ok)
        #expect(report.summary.contains("a DTD is refused"), "\(report.summary)")
    }
}
