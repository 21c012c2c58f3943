import Foundation
import Testing

/// quotectl and the store must start like a C program: no Foundation, in the
/// source or in the linked binary.
@Suite struct FoundationFreeTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every module ARCHITECTURE.md calls Foundation-free.
    @Test(arguments: ["Sources/QuoteBase", "Sources/QuoteStore", "Sources/QuoteConfig", "Sources/QuoteControl", "Sources/QuoteCommandLine",
                      "Sources/QuoteScheduling", "Sources/QuoteFeed", "Sources/QuoteSync", "Sources/QuoteDaemon", "Sources/quoted", "Sources/quotectl"])
    func sourcesImportNoFoundation(folder: String) throws {
        let root = Self.packageRoot.appendingPathComponent(folder)
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("import ") || line.contains(" import ") {
                #expect(!line.contains("Foundation"), "\(folder)/\(file): \(line)")
            }
        }
    }

    @Test func theQuotectlBinaryLinksNoFoundation() throws {
        let binary = try Data(contentsOf: BinaryRunner.productsFolder.appendingPathComponent("quotectl"))
        // Foundation's Swift symbols are mangled with the module name "10Foundation".
        #expect(binary.range(of: Data("10Foundation".utf8)) == nil)
        #expect(binary.range(of: Data("libFoundation".utf8)) == nil)
    }
}
