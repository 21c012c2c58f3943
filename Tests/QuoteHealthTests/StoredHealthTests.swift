import QuoteHealth
import QuoteModels
import Testing

/// Health made of the store's rows: the store is asked for the scope's manifest, feed and
/// sources, and each source the scope watches, in its order, takes its rows and sync record; on
/// a spoke, a source from the feed takes the feed's name and validity.
@Suite struct StoredHealthTests {
    static let scope = HealthScope(manifestURL: "https://hub.example/manifest.json", feedName: nil) { fed in
        fed.map { HealthScope.Source(name: $0, intervalSeconds: 60, fromFeed: true) } + [HealthScope.Source(name: "custom.a", intervalSeconds: 3_600)]
    }

    @Test func eachWatchedSourceTakesItsRowsRecordAndFeed() {
        var record = SyncRecord()
        record.lastSuccess = 900
        record.syncsOKTotal = 3
        let feed = FeedTrust(name: "hub.example", serial: 7, generated: 800, validUntil: 9_000, checkedAt: 950)
        let rows = HealthRows(fed: ["upbit"], feed: feed,
                              sources: ["upbit": HealthRows.Source(tables: [TableRows(table: "markets", count: 5)], sync: record)])
        var asked: [String] = []
        var manifest: String?
        let read = Self.scope.read { manifestURL, _, watched in
            manifest = manifestURL
            asked = watched(["upbit"])
            return rows
        }
        #expect(manifest == "https://hub.example/manifest.json")
        #expect(asked == ["upbit", "custom.a"])
        #expect(read.sources.map(\.name) == ["upbit", "custom.a"])
        let upbit = read.sources[0]
        #expect(upbit.feed == "hub.example" && upbit.feedValidUntil == 9_000 && upbit.intervalSeconds == 60)
        #expect(upbit.rows == [TableRows(table: "markets", count: 5)])
        #expect(upbit.lastSuccess == 900 && upbit.syncsOKTotal == 3)
        let list = read.sources[1]
        #expect(list.feed == nil && list.rows.isEmpty && list.lastSuccess == nil && list.intervalSeconds == 3_600)
        #expect(read.spokeFeed == FeedHealth(name: "hub.example", serial: 7, generated: 800, validUntil: 9_000, checkedAt: 950))
    }

    /// Before the first manifest is applied, a source from the feed is named by the feed the
    /// configuration pins.
    @Test func aPinnedFeedNamesItsSourcesBeforeAnyManifest() {
        let scope = HealthScope(manifestURL: "https://hub.example/manifest.json", feedName: "pinned") { _ in
            [HealthScope.Source(name: "upbit", intervalSeconds: 60, fromFeed: true)]
        }
        let read = scope.read { _, feedName, _ in
            #expect(feedName == "pinned")
            return HealthRows(fed: [], feed: nil, sources: [:])
        }
        #expect(read.sources.map(\.feed) == ["pinned"])
        #expect(read.spokeFeed == nil)
    }
}
