import Foundation
import TestSupport
import Testing

/// ARCHITECTURE.md: only QuoteFormats links libexpat, and the list readers are QuoteFormats' alone —
/// the store merges what a reader hands it and never names a format's reader.
@Suite(.computing) struct FormatLinkTests {
    @Test func onlyQuoteFormatsLinksAndImportsExpat() throws {
        let manifest = try String(contentsOf: SourceTree.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try NSRegularExpression(pattern: #"\.(?:target|executableTarget)\(\s*name: "(\w[\w-]*)",[^\]]*?dependencies: \[([^\]]*)\]"#,
                                             options: [.dotMatchesLineSeparators])
        var linking = Set<String>()
        for match in target.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            let dependencies = (manifest as NSString).substring(with: match.range(at: 2))
            if dependencies.contains("\"CExpat\"") { linking.insert((manifest as NSString).substring(with: match.range(at: 1))) }
        }
        #expect(linking == ["QuoteFormats"], "Package.swift links libexpat into \(linking.sorted())")
        var importing = Set<String>()
        for file in SourceTree.swiftFiles() where try SourceTree.codeLines(file).contains(where: { $0.text == "import CExpat" }) {
            importing.insert(String(file.prefix { $0 != "/" }))
        }
        #expect(importing == ["QuoteFormats"], "import CExpat in \(importing.sorted())")
    }

    @Test func theStoreNamesNoFormatsReader() throws {
        let readers = ["CustomList.Reader", "FortuneReader", "TextReader", "CSVReader", "FeedReader", "AutoReader", "ListReaders"]
        var offenders: [String] = []
        for file in SourceTree.swiftFiles() where file.hasPrefix("QuoteStore/") || file.hasPrefix("QuoteModels/") {
            for (number, line) in try SourceTree.codeLines(file) where line.contains("import QuoteFormats") || readers.contains(where: line.contains) {
                offenders.append("Sources/\(file):\(number): \(line)")
            }
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }
}
