import Foundation
import Synchronization
import Testing
import TestSupport

/// `quotectl random --follow` and `status --follow` as a bar runs them: a line at once, then one
/// on SIGUSR1 (and `quotectl next`), on another process's commit and at each --every; a quiet
/// exit 0 when the bar closes the pipe, 74 when the store is removed (64 for a bad --every, and
/// `next`'s stale entries: FollowUsageTests, in-process).
@Suite(.offThePool, .timeLimit(.minutes(10))) struct FollowTests {
    let scratch = Scratch()
    var quotectl: BinaryRunner

    init() throws {
        quotectl = BinaryRunner("quotectl", home: scratch.path)
        try FileManager.default.createDirectory(atPath: scratch.file("run"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        quotectl.environment["XDG_RUNTIME_DIR"] = scratch.file("run")
        quotectl.environment["QUOTED_DB"] = scratch.file("follow.db")
        try importList("first", text: "Work is love made visible.")
    }

    func importList(_ name: String, text: String) throws {
        let list = scratch.write("\(name).json", "[{\"id\": 1, \"text\": \"\(text)\", \"source\": \"Someone\"}]")
        let imported = try quotectl.run(["import", list, "--name", name])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    /// A value threads share, behind a lock (a class: the reader threads keep it).
    final class Shared<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ initial: Value) { value = Mutex(initial) }
    }

    /// A follower started as a bar starts it: its lines collected as they come.
    final class Follower: Sendable {
        let process = Process()
        let output = Pipe()
        let errors = Pipe()
        private let collected = Shared<[String]>([])
        private let errorText = Shared("")

        /// `collecting`: a thread reads its lines as they come (without one, the test reads, or closes, the pipe itself).
        /// `through`: a program that runs quotectl (setpriv, to follow as another user).
        init(_ runner: BinaryRunner, _ arguments: [String], collecting: Bool = true, through: [String] = []) throws {
            process.executableURL = URL(fileURLWithPath: through.first ?? runner.path)
            process.arguments = through.isEmpty ? arguments : Array(through.dropFirst()) + [runner.path] + arguments
            process.environment = runner.environment
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let reader = output.fileHandleForReading, collected = collected
            if collecting { Thread.detachNewThread {
                var pending = Data()
                while true {
                    let chunk = reader.availableData
                    if chunk.isEmpty { return }
                    pending += chunk
                    while let newline = pending.firstIndex(of: 10) {
                        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        collected.value.withLock { $0.append(line) }
                        pending = Data(pending[(newline + 1)...])
                    }
                }
            } }
            let errorReader = errors.fileHandleForReading, errorText = errorText
            Thread.detachNewThread { errorText.value.withLock { $0 = String(decoding: errorReader.readDataToEndOfFile(), as: UTF8.self) } }
        }

        var lines: [String] { collected.value.withLock { $0 } }
        var stderr: String { errorText.value.withLock { $0 } }

        // A full `swift test` keeps both cores busy for minutes: a follower's start and its
        // first line or exit once took more than 10 s there (the suite alone: 2.4 s).
        func waitForLines(_ count: Int, patience: Duration = .seconds(30)) -> Bool {
            Waiting.blockingUntil(patience: patience) { lines.count >= count }
        }

        func waitForExit() -> Int32? {
            guard Waiting.blockingUntil(patience: .seconds(30), { !process.isRunning }) else { return nil }
            return process.terminationStatus
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    func registered(_ follower: Follower) -> Bool {
        Waiting.blockingUntil { FileManager.default.fileExists(atPath: scratch.file("run/quoted/followers/\(follower.process.processIdentifier)")) }
    }

    @Test func aLineAtOnceThenOnSIGUSR1AndOnQuotectlNext() throws {
        let follower = try Follower(quotectl, ["random", "--follow", "--every", "1d", "--oneline"])
        defer { follower.stop() }
        #expect(follower.waitForLines(1))
        #expect(registered(follower), "the follower registers for quotectl next")
        kill(follower.process.processIdentifier, SIGUSR1)
        #expect(follower.waitForLines(2), "SIGUSR1 prints another quote")
        let next = try quotectl.run(["next"])
        #expect(next.status == 0 && next.stdout == "asked 1 follower for another quote\n", "\(next.stdout)\(next.stderr)")
        #expect(follower.waitForLines(3), "quotectl next prints another quote")
        follower.stop()
        let none = try quotectl.run(["next"])
        #expect(none.status == 69 && none.stderr.contains("no 'quotectl random --follow' runs"), "\(none.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("run/quoted/followers")).isEmpty,
                "the stopped follower's entry is gone")
    }

    @Test func aLineWhenAnotherProcessCommits() throws {
        let follower = try Follower(quotectl, ["random", "--follow", "--every", "1d", "--source", "custom.second", "--oneline"])
        defer { follower.stop() }
        // Nothing matches yet: a follower with nothing to show at start says so (exit 66).
        #expect(follower.waitForExit() == 66)
        let waiting = try Follower(quotectl, ["random", "--follow", "--every", "1d", "--json"])
        defer { waiting.stop() }
        #expect(waiting.waitForLines(1))
        try importList("second", text: "The obstacle is the way.")
        #expect(waiting.waitForLines(2), "the import's commit prints a line: \(waiting.lines)")
        let status = try Follower(quotectl, ["status", "--follow", "--format", "waybar"])
        defer { status.stop() }
        #expect(status.waitForLines(1) && status.lines[0].hasPrefix("{\"text\": \"quotes: "), "\(status.lines)")
        try importList("third", text: "Fortune favours the bold.")
        #expect(status.waitForLines(2), "status follows commits too")
    }

    /// The system store as a user in group quoted sees it between syncs: a folder the user may
    /// read but not write, and no -shm, so SQLite cannot share the writers' locks. The follower
    /// keeps an immutable look and renews it when the store's file is written.
    @Test(.enabled(if: getuid() == 0, "needs root, to follow as another user"))
    func aUserWhoCannotWriteBesideTheStoreStillSeesCommits() throws {
        let store = scratch.file("follow.db")
        // As a store that no process has open since its WAL was copied back looks (an empty WAL
        // taken away loses nothing).
        let walSize = (try? FileManager.default.attributesOfItem(atPath: store + "-wal")[.size] as? Int) ?? 0
        #expect(walSize == 0, "the import left its WAL copied back")
        try? FileManager.default.removeItem(atPath: store + "-wal")
        try? FileManager.default.removeItem(atPath: store + "-shm")
        let own = scratch.file("nobody")
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        chmod(scratch.path, 0o755)
        chmod(store, 0o644)
        var nobody = quotectl
        for name in ["HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME"] { nobody.environment[name] = own }
        let follower = try Follower(nobody, ["--no-create", "random", "--follow", "--every", "1d", "--oneline"],
                                    through: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        defer { follower.stop() }
        #expect(follower.waitForLines(1), "\(follower.stderr)")
        try importList("second", text: "The obstacle is the way.")
        #expect(follower.waitForLines(2), "the import's commit reaches a follower that cannot share SQLite's locks: \(follower.stderr)")
        #expect(follower.process.isRunning)
    }

    @Test func aLineAtEachInterval() throws {
        let follower = try Follower(quotectl, ["random", "--follow", "--every", "1s", "--format", "tmux"])
        defer { follower.stop() }
        #expect(follower.waitForLines(3), "three lines a second apart: \(follower.lines)")
    }

    @Test func aClosedPipeEndsItQuietly() throws {
        let follower = try Follower(quotectl, ["random", "--follow", "--every", "1d", "--format", "waybar"], collecting: false)
        defer { follower.stop() }
        // The first line read, then the bar goes: no thread of the test's still holds the read end.
        #expect(!follower.output.fileHandleForReading.availableData.isEmpty)
        try follower.output.fileHandleForReading.close()
        #expect(follower.waitForExit() == 0)
        #expect(Waiting.blockingUntil { follower.stderr.isEmpty }, "\(follower.stderr)")
    }

    @Test func aRemovedStoreEndsItWith74() throws {
        let follower = try Follower(quotectl, ["random", "--follow", "--every", "1d", "--oneline"])
        defer { follower.stop() }
        #expect(follower.waitForLines(1))
        try FileManager.default.removeItem(atPath: scratch.file("follow.db"))
        #expect(follower.waitForExit() == 74)
        #expect(Waiting.blockingUntil { follower.stderr.contains("the store at \(scratch.file("follow.db")) was removed") }, "\(follower.stderr)")
        #expect(follower.stderr.split(separator: "\n").count == 1, "\(follower.stderr)")
    }

    @Test func aReplacedStoreEndsItWith74() throws {
        let follower = try Follower(quotectl, ["random", "--follow", "--every", "1d", "--oneline"])
        defer { follower.stop() }
        #expect(follower.waitForLines(1))
        let other = scratch.write("other.db", "not the store it reads")
        #expect(rename(other, scratch.file("follow.db")) == 0)
        #expect(follower.waitForExit() == 74)
        #expect(Waiting.blockingUntil { follower.stderr.contains("was replaced by another file") }, "\(follower.stderr)")
    }
}
