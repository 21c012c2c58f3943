import Foundation
import TestSupport
import Testing

/// ARCHITECTURE.md: the store's schema is Migrations/*.sql. Outside them the sources create only
/// the migrator's own bookkeeping table and the search's temporary vocabulary table, and alter no
/// table, so a store's shape is always what its recorded migrations say.
@Suite(.computing) struct SchemaTests {
    /// A table, index, trigger or view created, or a table altered, other than those two.
    static let definition = try! NSRegularExpression(pattern:
        #"\b(CREATE\s+(UNIQUE\s+|VIRTUAL\s+|TEMP\s+|TEMPORARY\s+)*(TABLE|INDEX|TRIGGER|VIEW)|ALTER\s+TABLE)\b"#
        + #"(?!\s+IF\s+NOT\s+EXISTS\s+(schema_migrations\b|temp\.quotes_term_instances\b))"#)

    static func hits(_ text: String) -> Bool {
        definition.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    @Test func noSchemaOutsideTheMigrations() throws {
        let files = SourceTree.swiftFiles()
        #expect(files.count > 50)
        var offenders: [String] = []
        for file in files {
            for (number, line) in try SourceTree.codeLines(file) where Self.hits(line) {
                offenders.append("Sources/\(file):\(number): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "schema outside Migrations/:\n\(offenders.joined(separator: "\n"))")
    }

    @Test func thePatternSeesWhatItIsFor() {
        for statement in ["CREATE TABLE quotes (id INTEGER PRIMARY KEY)", "CREATE UNIQUE INDEX quotes_by_id ON quotes(id)",
                          "CREATE TEMP TABLE scratch (a)", "ALTER TABLE sync_state ADD COLUMN x INTEGER",
                          "CREATE TABLE IF NOT EXISTS quotes (id)", "CREATE TRIGGER quotes_on_insert AFTER INSERT ON quotes"] {
            #expect(Self.hits(statement), "\(statement)")
        }
        for allowed in ["CREATE TABLE IF NOT EXISTS schema_migrations (",
                        "\"CREATE VIRTUAL TABLE IF NOT EXISTS temp.quotes_term_instances USING fts5vocab(main, quotes_fts, instance)\")",
                        "public static let created = Changes(rawValue: UInt32(IN_CREATE))",
                        "case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE"] {
            #expect(!Self.hits(allowed), "\(allowed)")
        }
    }
}
