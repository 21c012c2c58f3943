import Foundation
import Synchronization
import Testing
import TestSupport

/// The state's lock between processes: a bar's click and a terminal liking at once are two
/// quotectl processes, and a POSIX lock is the process's (runs in one process share it).
@Suite(.offThePool, .timeLimit(.minutes(10))) struct KeepCommandsAtOnceTests {
    let scratch = Scratch()
    var quotectl: BinaryRunner

    init() {
        quotectl = BinaryRunner("quotectl", home: scratch.path)
        quotectl.environment["XDG_STATE_HOME"] = scratch.file("state")
        quotectl.environment["QUOTED_DB"] = scratch.file("q.db")
    }

    func importList(_ quotes: [String: String], name: String) throws {
        let list = quotes.sorted { $0.key < $1.key }.map { #"{"id": "\#($0.key)", "text": "\#($0.value)", "source": "Author \#($0.key)"}"# }
        let file = scratch.write(name + ".json", "[" + list.joined(separator: ",") + "]")
        let imported = try quotectl.run(["import", file, "--name", name])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    func liked() throws -> [[String: Any]] {
        let result = try quotectl.run(["liked", "--json"])
        return result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Likes given at once (a bar's click and a terminal) are each kept: the state's lock lets one
    /// read-change-write at a time.
    @Test func likesAtOnceAreEachKept() throws {
        let ids = (1...8).map(String.init)
        try importList(Dictionary(uniqueKeysWithValues: ids.map { ($0, "Quote number \($0) of many.") }), name: "many")
        let runner = quotectl
        let statuses = Mutex([Int32]())
        DispatchQueue.concurrentPerform(iterations: ids.count) { index in
            let status = (try? runner.run(["like", "custom.many:\(ids[index])"]).status) ?? -1
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 } == Array(repeating: 0, count: ids.count))
        let keys = try liked().compactMap { $0["key"] as? String }
        #expect(Set(keys) == Set(ids.map { "custom.many:\($0)" }), "\(keys)")
    }
}
