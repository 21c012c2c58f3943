import Foundation
import TestSupport
import Testing

/// Who owns what: the store owns every SQL statement. The compiler holds it to that (its
/// connection and statements are internal to QuoteStore, so no other module can run one); what
/// it cannot see is a door opened beside the store's: SQLite imported by another module, or the
/// store's insides reached through `@testable`.
@Suite(.computing) struct OwnershipTests {
    /// Where `file`'s code has a line that is `line`, as "Sources/FILE:LINE".
    static func lines(_ line: String, in file: String) throws -> [String] {
        try SourceTree.codeLines(file).filter { $0.text.trimmingCharacters(in: .whitespaces).hasPrefix(line) }
            .map { "Sources/\(file):\($0.number)" }
    }

    @Test func onlyTheStoreImportsSQLite() throws {
        let files = SourceTree.swiftFiles()
        #expect(files.count > 50)
        let offenders = try files.filter { !$0.hasPrefix("QuoteStore/") }.flatMap { try Self.lines("import CSQLite", in: $0) }
        #expect(offenders.isEmpty, "SQLite imported outside QuoteStore:\n\(offenders.joined(separator: "\n"))")
        #expect(try files.contains { try !Self.lines("import CSQLite", in: $0).isEmpty }, "the check finds QuoteStore's own import")
    }

    @Test func noSourceReachesAModulesInsides() throws {
        let offenders = try SourceTree.swiftFiles().flatMap { try Self.lines("@testable import", in: $0) }
        #expect(offenders.isEmpty, "@testable import in Sources:\n\(offenders.joined(separator: "\n"))")
    }
}
