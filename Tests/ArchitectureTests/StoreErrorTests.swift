import Foundation
import TestSupport
import Testing

/// The store speaks its own errors: SQLite's `DatabaseError` stays inside QuoteStore (carried in a
/// `StoreError`), so no other module names it, and none converts one.
@Suite(.computing) struct StoreErrorTests {
    static let words = try! NSRegularExpression(pattern: #"\b(DatabaseError|withStoreErrors)\b"#)

    @Test func onlyTheStoreNamesSQLitesErrors() throws {
        var offenders: [String] = []
        for file in SourceTree.swiftFiles() where !file.hasPrefix("QuoteStore/") {
            for (number, line) in try SourceTree.codeLines(file)
            where Self.words.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                offenders.append("Sources/\(file):\(number): \(line)")
            }
        }
        #expect(offenders.isEmpty, "SQLite's errors outside QuoteStore:\n\(offenders.joined(separator: "\n"))")
    }

    /// The check itself finds what it is for, and not a longer name.
    @Test func theCheckSeesSQLitesErrors() {
        func hits(_ line: String) -> Bool { Self.words.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil }
        #expect(hits("case let database as DatabaseError where database.resultCode == .constraint:"))
        #expect(hits("try store.withStoreErrors { try picker.count(filter) }"))
        #expect(!hits("let error: StoreError = .database(path: path, failure)"))
    }
}
