import Foundation

/// The package's own source files, read as text for the rules the compiler cannot check.
enum SourceTree {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift file under Sources/, as "Module/Path.swift".
    static func swiftFiles() -> [String] {
        let sources = root.appendingPathComponent("Sources")
        return (FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") }.sorted()
    }

    static func text(_ file: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("Sources").appendingPathComponent(file), encoding: .utf8)
    }

    /// The lines of `file` that are code: comment lines (`//`, `///`) and what follows `//` on a
    /// line are left out, so prose may name what code may not use.
    static func codeLines(_ file: String) throws -> [(number: Int, text: String)] {
        try text(file).split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            var code = String(line)
            if let comment = code.range(of: "//") { code = String(code[..<comment.lowerBound]) }
            return code.trimmingCharacters(in: .whitespaces).isEmpty ? nil : (index + 1, code)
        }
    }
}
