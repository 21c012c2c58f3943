import Foundation
import TestSupport
import Testing

/// Every module ARCHITECTURE.md's table marks "no" in its Foundation column imports no
/// Foundation: the list is read from the document, so the two cannot drift apart.
@Suite(.computing) struct FoundationFreeSourceTests {
    /// The modules whose row ends in `| no |`, from the table in ARCHITECTURE.md.
    static func foundationFreeModules() throws -> [String] {
        let text = try String(contentsOf: SourceTree.root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.hasSuffix("| no |") }.flatMap { row in
            // "| `quoted`, `quotectl` | ... | no |": every back-quoted name in the first cell.
            let cell = row.split(separator: "|", omittingEmptySubsequences: true).first ?? ""
            return cell.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
    }

    @Test func theDocumentNamesEverySourceModule() throws {
        let modules = try Self.foundationFreeModules()
        #expect(modules.contains("QuoteSystem") && modules.contains("quotectl") && modules.count >= 12, "\(modules)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: SourceTree.root.appendingPathComponent("Sources").path)
        for module in modules { #expect(folders.contains(module), "ARCHITECTURE.md names \(module), which has no Sources folder") }
        // Every Swift module but the build-time embedder is in the table (C targets have no Swift).
        for folder in folders where !folder.hasPrefix("C") && folder != "migration-embedder" && folder != "catalog-compiler" {
            #expect(modules.contains(folder), "Sources/\(folder) is missing from ARCHITECTURE.md's table (or imports Foundation)")
        }
    }

    @Test func foundationFreeModulesImportNoFoundation() throws {
        let modules = Set(try Self.foundationFreeModules())
        var offenders: [String] = []
        for file in SourceTree.swiftFiles() where modules.contains(String(file.prefix { $0 != "/" })) {
            for (number, line) in try SourceTree.codeLines(file) where line.contains("import ") && line.contains("Foundation") {
                offenders.append("Sources/\(file):\(number): \(line)")
            }
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }
}
