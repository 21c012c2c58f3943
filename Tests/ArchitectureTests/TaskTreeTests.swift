import Foundation
import TestSupport
import Testing

/// The daemon is one task tree (ARCHITECTURE.md, "The daemon and its children"): every task it
/// starts is a child of a group under `Daemon.run`, so a stop that cancels the group reaches it
/// and `run` returns only once it has ended. A free-standing `Task { }` or `Task.detached` would
/// be outside the tree: cancelled by nobody, waited for by nobody.
@Suite(.computing) struct TaskTreeTests {
    static let unstructured = #"\bTask(\.detached)?\s*(\{|\()"#

    static func offenders(in lines: [(file: String, number: Int, text: String)]) throws -> [String] {
        let expression = try NSRegularExpression(pattern: unstructured)
        return lines.filter { expression.firstMatch(in: $0.text, range: NSRange($0.text.startIndex..., in: $0.text)) != nil }
            .map { "Sources/\($0.file):\($0.number): \($0.text.trimmingCharacters(in: .whitespaces))" }
    }

    @Test func theDaemonStartsNoTaskOutsideItsTree() throws {
        // The daemon's library and the program that runs it.
        let files = SourceTree.swiftFiles().filter { $0.hasPrefix("QuoteDaemon/") || $0.hasPrefix("quoted/") }
        #expect(files.count > 15)
        var lines: [(file: String, number: Int, text: String)] = []
        for file in files { lines += try SourceTree.codeLines(file).map { (file, $0.number, $0.text) } }
        let found = try Self.offenders(in: lines)
        #expect(found.isEmpty, "an unstructured task in the daemon:\n\(found.joined(separator: "\n"))")
    }

    /// The pattern finds what it is for, and not the structured calls or the type's other uses.
    @Test func thePatternSeesWhatItIsFor() throws {
        func hits(_ text: String) throws -> Bool { try !Self.offenders(in: [("x.swift", 1, text)]).isEmpty }
        for call in ["Task { await self.stopWaiting(ticket) }", "let task = Task(priority: .low) { work() }",
                     "Task.detached { FeedDigest.hex(body) }", "_ = Task.detached(priority: current) {"] {
            #expect(try hits(call), "\(call)")
        }
        for lookAlike in ["group.addTask { await self.scheduleSyncs(); return nil }", "if Task.isCancelled { return }",
                          "try await Task.sleep(for: .milliseconds(1))", "var pending: [String: Task<String?, Never>] = [:]",
                          "withUnsafeCurrentTask { $0?.cancel() }", "await withDiscardingTaskGroup { syncs in"] {
            #expect(try !hits(lookAlike), "\(lookAlike)")
        }
    }
}
