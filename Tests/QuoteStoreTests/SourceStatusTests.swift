import Testing
@testable import QuoteStore
@testable import QuoteModels

/// What the store says of each source for `quotectl status`: a list `quotectl import` made (no
/// URL, never synced) is imported and not configured; a list synced from a URL is neither; and
/// `--json` says so.
@Suite struct SourceStatusTests {
    let folder = TemporaryFolder()

    @Test func aListOnlyImportedIsNotConfigured() throws {
        let store = try Store(path: folder.file("quotes.db"), access: .write, now: 1_000)
        let writer = QuoteWriter(database: store.database)
        try store.database.transaction { () throws(StoreError) in
            try writer.ensureSource("custom.imported", now: 1_000)
            try writer.ensureSource("custom.synced", url: "https://example.org/l.json", now: 1_000)
        }
        let sources = try StatusQuery(database: store.database).sources()
        let imported = try #require(sources.first { $0.name == "custom.imported" })
        let synced = try #require(sources.first { $0.name == "custom.synced" })
        #expect(imported.imported && !imported.configured)
        #expect(!synced.imported && synced.configured)
        #expect(imported.json(now: 1_000).contains(#""configured":false,"imported":true,"#), "\(imported.json(now: 1_000))")
        #expect(!synced.json(now: 1_000).contains("imported"), "\(synced.json(now: 1_000))")
        var disabled = try #require(sources.first { $0.name == SourceName.weather })
        disabled.configured = false
        disabled.disabled = true
        #expect(disabled.json(now: 1_000).contains(#""configured":false,"disabled":true,"#), "\(disabled.json(now: 1_000))")
    }
}
