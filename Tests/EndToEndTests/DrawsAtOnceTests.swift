import Foundation
import QuoteModels
import Synchronization
import Testing
import TestSupport

/// Draws from several processes at once (a status bar each second and a terminal): each adds its
/// whole line to the user's histories, none run into another or lost, across a compaction too.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct DrawsAtOnceTests {
    let scratch = Scratch()
    var quotectl: BinaryRunner
    var state: String { scratch.file("state/quoted") }
    /// ShownQuotes.compactionBytes: past this size, the writer rewrites the history short.
    static let compactionBytes = 256 << 10

    init() throws {
        quotectl = BinaryRunner("quotectl", home: scratch.path)
        quotectl.environment["XDG_STATE_HOME"] = scratch.file("state")
        quotectl.environment["QUOTED_DB"] = scratch.file("q.db")
        let list = (1...300).map { #"{"id": "\#($0)", "text": "Quote number \#($0).", "source": "Author \#($0)"}"# }
        let imported = try quotectl.run(["import", scratch.write("t.json", "[" + list.joined(separator: ",") + "]"), "--name", "t"])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    static func id(of line: Substring) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
    }

    /// "SOURCE\0ID" of a printed or recorded quote: what `--unseen`'s key is a hash of.
    static func sourceAndID(of line: Substring) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let source = object["source"] as? String, let id = object["id"] as? String else { return nil }
        return source + "\u{0}" + id
    }

    /// `arguments` run by `processes` processes at once, `each` times in each: the ids printed
    /// ("failed" for a run that did not succeed).
    func drawAtOnce(_ arguments: [String], processes: Int = 6, each: Int = 15,
                    printing read: @escaping @Sendable (Substring) -> String? = DrawsAtOnceTests.id(of:)) -> [String] {
        let runner = quotectl
        let printed = Mutex([String]())
        DispatchQueue.concurrentPerform(iterations: processes) { _ in
            for _ in 0..<each {
                guard let result = try? runner.run(arguments + ["--json"]), result.status == 0, result.stderr.isEmpty else {
                    printed.withLock { $0.append("failed") }
                    continue
                }
                let ids = result.stdout.split(separator: "\n").compactMap(read)
                printed.withLock { $0 += ids }
            }
        }
        return printed.withLock { $0 }
    }

    func shownLines() throws -> [Substring] {
        let text = try String(contentsOfFile: state + "/shown", encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        return Array(text.split(separator: "\n", omittingEmptySubsequences: false).dropLast())
    }

    @Test func drawsAtOnceEachAddTheirWholeLine() throws {
        let printed = drawAtOnce(["random"])
        #expect(printed.count == 90 && !printed.contains("failed"))
        let recorded = try shownLines().map(Self.id)
        #expect(!recorded.contains(nil), "a line torn or run into another")
        #expect(recorded.compactMap { $0 }.sorted() == printed.sorted())
    }

    @Test func unseenDrawsAtOnceEachKeepTheirKey() throws {
        // The starter set's quotes are drawn too: each key is its source's and id's.
        let printed = drawAtOnce(["random", "--unseen"], printing: Self.sourceAndID(of:))
        #expect(printed.count == 90 && !printed.contains("failed"))
        let seen = try #require(try FileManager.default.contentsOfDirectory(atPath: state).first { $0.hasPrefix("seen-") })
        let lines = try String(contentsOfFile: state + "/" + seen, encoding: .utf8).split(separator: "\n")
        let keys = Set(lines.compactMap { UInt64($0, radix: 16) })
        #expect(lines.allSatisfy { UInt64($0, radix: 16) != nil }, "every line a key, none run into another")
        for id in printed {
            #expect(keys.contains(UInt64(bitPattern: Int64(FNV1a.hash(id).signed))), "\(id) drawn but not kept as seen")
        }
    }

    /// The history just short of its size: one of the draws rewrites it, the others go on
    /// adding meanwhile. Every line stays whole, no temporary file is left, and the newest draws
    /// are the ones kept.
    @Test func drawsAtOnceAcrossACompaction() throws {
        var filler = "", count = 0
        while filler.utf8.count < Self.compactionBytes - 1_500 {
            filler += #"{"boot":null,"session":null,"source":"custom.t","id":"pre-\#(count)","text":"Before.","author":null,"lang":null,"time":1}"# + "\n"
            count += 1
        }
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try filler.write(toFile: state + "/shown", atomically: false, encoding: .utf8)
        let printed = drawAtOnce(["random"])
        #expect(printed.count == 90 && !printed.contains("failed"))
        let recorded = try shownLines().map(Self.id)
        #expect(!recorded.contains(nil), "a line torn or run into another")
        #expect(recorded.count < count, "the history was rewritten short")
        let drawn = recorded.compactMap { $0 }.filter { !$0.hasPrefix("pre-") }
        #expect(drawn.count >= 90 - 20 && Set(drawn).isSubset(of: Set(printed)), "\(drawn.count) of 90 draws kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state).sorted() == ["shown"])
    }
}
