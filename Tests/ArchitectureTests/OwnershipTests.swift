import Foundation
import TestSupport
import Testing

/// Who owns what, checked in the sources: the store owns every SQL statement.
@Suite(.computing) struct OwnershipTests {
    /// SQL keywords as they start a statement inside a string literal.
    static let sql = try! NSRegularExpression(
        pattern: #"("|^\s*)(SELECT\s.+\sFROM\s|INSERT\s+(OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|CREATE\s+(TABLE|INDEX|TRIGGER|VIEW)\s|DROP\s+(TABLE|INDEX|TRIGGER)\s|PRAGMA\s+\w+)"#,
        options: [.anchorsMatchLines])

    @Test func noSQLOutsideTheStore() throws {
        var offenders: [String] = []
        let files = SourceTree.swiftFiles()
        #expect(files.count > 50)
        for file in files where !file.hasPrefix("QuoteStore/") && !file.hasPrefix("migration-embedder/") && !file.hasPrefix("catalog-compiler/") {
            for (number, line) in try SourceTree.codeLines(file) {
                let range = NSRange(line.startIndex..., in: line)
                if Self.sql.firstMatch(in: line, range: range) != nil { offenders.append("Sources/\(file):\(number): \(line)") }
            }
        }
        #expect(offenders.isEmpty, "SQL outside QuoteStore:\n\(offenders.joined(separator: "\n"))")
    }

    /// The check itself finds SQL where there is some.
    @Test func theCheckSeesSQL() {
        for line in [#"        let s = "SELECT id FROM quotes""#, #"            INSERT OR REPLACE INTO daily_quotes (a)"#,
                     #"db.execute("PRAGMA foreign_keys = ON")"#, #"    "UPDATE sources SET configured = 0""#] {
            #expect(Self.sql.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil, "\(line)")
        }
        let prose = "/// Selects the quote from the list"
        #expect(Self.sql.firstMatch(in: prose, range: NSRange(prose.startIndex..., in: prose)) == nil)
    }
}
