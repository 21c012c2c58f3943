import Foundation
import TestSupport
import Testing

/// The store's module opens no file itself: SQLite's VFS does (`DatabaseFile`). A close(2) of any
/// descriptor of the store's file would drop every POSIX lock this process's connections hold on
/// it, and another process's closing connection would then truncate the WAL under them.
@Suite(.computing) struct StoreFileTests {
    static let opening = #"FileDescriptor\.open\(|FileReader\.(read|readStandardInput|Chunks)\b|(^|[^A-Za-z_.])(open|fopen|openat)\("#

    @Test func theStoreModuleOpensNoFileItself() throws {
        let expression = try NSRegularExpression(pattern: Self.opening)
        var found: [String] = []
        let files = SourceTree.swiftFiles().filter { $0.hasPrefix("QuoteStore/") }
        #expect(files.count > 20)
        for file in files {
            for line in try SourceTree.codeLines(file)
            where expression.firstMatch(in: line.text, range: NSRange(line.text.startIndex..., in: line.text)) != nil {
                found.append("Sources/\(file):\(line.number): \(line.text.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "a file opened outside SQLite in QuoteStore:\n\(found.joined(separator: "\n"))")
    }

    @Test func thePatternSeesWhatItIsFor() throws {
        let expression = try NSRegularExpression(pattern: Self.opening)
        func hits(_ text: String) -> Bool { expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
        #expect(hits("let file = try FileDescriptor.open(path, O_RDONLY)"))
        #expect(hits("try FileReader.read(path, limit: 100)"))
        #expect(hits("let fd = open(path, O_RDONLY)"))
        #expect(!hits("FileReader.size(path)"))
        #expect(!hits("try Self.open(path, mode: .readOnly)"))
        #expect(!hits("database.isOpen"))
    }
}
