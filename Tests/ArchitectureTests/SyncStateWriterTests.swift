import Foundation
import TestSupport
import Testing

/// ARCHITECTURE.md: `sync_state` is read and written by `SyncStateRepository` alone, so every
/// outcome a sync records goes through the one place that keeps its counters and backoff
/// consistent, and every reader (status, the health reading, a hub's feed) sees one reading of it.
@Suite(.computing) struct SyncStateWriterTests {
    static let owner = "QuoteStore/Queries/SyncStateRepository.swift"
    static let table = try! NSRegularExpression(pattern: #"\bsync_state\b"#)

    /// Where `file`'s code names the table, as "Sources/FILE:LINE".
    static func mentions(in file: String) throws -> [String] {
        try SourceTree.codeLines(file).filter { Self.table.firstMatch(in: $0.text, range: NSRange($0.text.startIndex..., in: $0.text)) != nil }
            .map { "Sources/\(file):\($0.number)" }
    }

    @Test func onlySyncStateRepositoryReadsOrWritesTheSyncState() throws {
        let files = SourceTree.swiftFiles()
        #expect(files.count > 50)
        var offenders: [String] = []
        for file in files where file != Self.owner {
            offenders += try Self.mentions(in: file)
        }
        #expect(offenders.isEmpty, "sync_state named outside SyncStateRepository:\n\(offenders.joined(separator: "\n"))")
        #expect(try !Self.mentions(in: Self.owner).isEmpty, "the pattern finds none of SyncStateRepository's own statements")
    }

    @Test func thePatternSeesWhatItIsFor() {
        func hits(_ text: String) -> Bool { Self.table.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
        #expect(hits("INSERT INTO sync_state (source, next_due) VALUES (?1, ?2)"))
        #expect(hits("SELECT last_success FROM sync_state WHERE source = ?1"))
        #expect(hits("LEFT JOIN sync_state st ON st.source = s.name"))
        #expect(!hits("INSERT INTO sync_log (source, ok) VALUES (?1, ?2)"))
        #expect(!hits("let syncState = store.syncState"))
    }
}
