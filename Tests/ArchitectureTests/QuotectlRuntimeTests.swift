import Foundation
import TestSupport
import Testing

/// quotectl links no Swift concurrency runtime: no module it is built from (Package.swift's
/// dependencies of `quotectl`, followed through) suspends, starts a task, binds a task-local or
/// reads a concurrency clock. One such use links libswift_Concurrency and libdispatch, whose
/// start-up every `quotectl random` pays (docs/benchmarks.md); the daemon's async half of the
/// system layer is QuoteSystemTasks, which quotectl does not depend on.
@Suite(.computing) struct QuotectlRuntimeTests {
    static let concurrency = #"\bactor\s+[A-Z]|\b(async|await|Task|TaskGroup|ThrowingTaskGroup|TaskLocal|TaskPriority|MainActor|AsyncStream|AsyncThrowingStream|AsyncSequence|ContinuousClock|SuspendingClock|withCheckedContinuation|withCheckedThrowingContinuation|withUnsafeContinuation|withTaskCancellationHandler|withUnsafeCurrentTask|CheckedContinuation|UnsafeContinuation|UnsafeThrowingContinuation)\b|\bClock<|[:=(,]\s*\.(continuous|suspending)\b"#

    /// The modules `target` is built from, itself included.
    static func closure(of target: String, in targets: [String: Set<String>]) -> Set<String> {
        var found: Set<String> = []
        var waiting = [target]
        while let next = waiting.popLast() {
            guard found.insert(next).inserted else { continue }
            waiting += targets[next] ?? []
        }
        return found
    }

    @Test func quotectlsModulesUseNoConcurrency() throws {
        let modules = Self.closure(of: "quotectl", in: try ModuleTableTests.targets(in: ModuleTableTests.manifest()))
        #expect(modules.isSuperset(of: ["QuoteSystem", "QuoteBase", "QuotectlCommands", "QuoteStore", "QuoteUserState"]), "\(modules.sorted())")
        #expect(!modules.contains("QuoteSystemTasks") && !modules.contains("QuoteSync") && !modules.contains("QuoteDaemon"))
        let expression = try NSRegularExpression(pattern: Self.concurrency)
        var offenders: [String] = []
        let files = SourceTree.swiftFiles().filter { modules.contains(String($0.prefix { $0 != "/" })) }
        #expect(files.count > 100)
        for file in files {
            for (number, line) in try SourceTree.codeLines(file)
            where expression.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                offenders.append("Sources/\(file):\(number): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "quotectl's modules use the concurrency runtime:\n\(offenders.joined(separator: "\n"))")
    }

    @Test func theRuleSeesWhatItIsFor() throws {
        let expression = try NSRegularExpression(pattern: Self.concurrency)
        func hits(_ line: String) -> Bool { expression.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil }
        for line in ["func f() async -> Int {", "let x = await y()", "Task.detached { }", "@TaskLocal static var v = 0",
                     "let t = ContinuousClock.now", "await withCheckedContinuation { c in", "actor Counter {",
                     "for try await line in AsyncStream<Int> { _ in }", "let p: TaskPriority = .low",
                     "let clock: any Clock<Duration> = .continuous", "withUnsafeCurrentTask { _ in }", "sleep(for: d, clock: .suspending)"] {
            #expect(hits(line), "\(line)")
        }
        for line in ["let asynchronous = true", "struct TaskList {}", "var tasks: [String] = []", "let reactor = 1", "if let actor = character.portrayedBy {",
                     "ThreadLocal(Run(context: .program))", "BlockingWork.start { }"] {
            #expect(!hits(line), "\(line)")
        }
    }
}
