import Foundation
import TestSupport
import Testing

/// ARCHITECTURE.md: `sync_state` is written by `SyncStateRepository` alone, so every outcome a
/// sync records goes through the one place that keeps its counters and backoff consistent; the
/// store's reports may read it in statements of their own.
@Suite(.computing) struct SyncStateWriterTests {
    static let writer = "QuoteStore/Queries/SyncStateRepository.swift"

    /// A statement that writes the table, its keyword and the table's name possibly on two lines.
    static let writeStatement = try! NSRegularExpression(
        pattern: #"\b(INSERT\s+(OR\s+\w+\s+)?INTO|REPLACE\s+INTO|UPDATE(\s+OR\s+\w+)?|DELETE\s+FROM)\s+sync_state\b"#)

    /// Where `file`'s code writes `sync_state`, as "Sources/FILE:LINE".
    static func writes(in file: String) throws -> [String] {
        let lines = try SourceTree.codeLines(file)
        let code = lines.map(\.text).joined(separator: "\n")
        return Self.writeStatement.matches(in: code, range: NSRange(code.startIndex..., in: code)).map { match in
            let before = (code as NSString).substring(to: match.range.location)
            let index = before.filter { $0 == "\n" }.count
            return "Sources/\(file):\(lines[index].number)"
        }
    }

    @Test func onlySyncStateRepositoryWritesTheSyncState() throws {
        let files = SourceTree.swiftFiles()
        #expect(files.count > 50)
        var offenders: [String] = []
        for file in files where file != Self.writer {
            offenders += try Self.writes(in: file)
        }
        #expect(offenders.isEmpty, "sync_state written outside SyncStateRepository:\n\(offenders.joined(separator: "\n"))")
        #expect(try !Self.writes(in: Self.writer).isEmpty, "the pattern finds none of SyncStateRepository's own writes")
    }

    @Test func thePatternSeesWhatItIsFor() {
        func hits(_ text: String) -> Bool { Self.writeStatement.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
        #expect(hits("INSERT INTO sync_state (source, next_due) VALUES (?1, ?2)"))
        #expect(hits("INSERT OR REPLACE INTO\n    sync_state (source) VALUES (?1)"))
        #expect(hits("UPDATE sync_state SET next_due = ?2 WHERE source = ?1"))
        #expect(hits("DELETE FROM sync_state WHERE source = ?1"))
        #expect(!hits("SELECT last_success FROM sync_state WHERE source = ?1"))
        #expect(!hits("LEFT JOIN sync_state st ON st.source = s.name"))
        #expect(!hits("INSERT INTO sync_log (source, ok) VALUES (?1, ?2)"))
    }
}
