import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport
import QuoteStore
import QuoteSystem

/// Another process's turn to write, as a writer meets it: a POSIX lock is the whole process's, so
/// the holder here is this test process and the writer a quotectl process of its own.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct WriterTurnEndToEndTests {
    let scratch = Scratch()

    @Test func aWriterSaysWhoseTurnItWaitsForAndThenWrites() throws {
        var quotectl = BinaryRunner("quotectl", home: scratch.path)
        let store = scratch.file("q.db")
        quotectl.environment["QUOTED_DB"] = store
        let list = scratch.write("list.json", #"[{"id": 1, "text": "Written once the turn was over."}]"#)
        #expect(try quotectl.run(["import", list, "--name", "first"]).status == 0)

        var holder: ProcessLock? = try ProcessLock.take(WriterTurn.lockPath(of: store), creating: ProcessLock.Creation(mode: 0o644))
        // The writer's standard error goes to a file, read while it waits: the turn is given up
        // once the writer has said whose turn it waits for, however long a loaded two-core run
        // takes to start a debug build (a fixed 5 s was once too short: it never waited).
        let said = scratch.file("said")
        var shell = BinaryRunner("sh", home: scratch.path, path: "/bin/sh")
        shell.environment = quotectl.environment
        let runner = shell
        let arguments = ["-c", #"exec "$0" import "$1" --name second 2>"$2""#, quotectl.path, list, said]
        let finished = DispatchSemaphore(value: 0)
        let result = Mutex<BinaryRunner.Result?>(nil)
        DispatchQueue.global().async {
            let imported = try? runner.run(arguments, timeout: 180)
            result.withLock { $0 = imported }
            finished.signal()
        }
        let saysItWaits = Waiting.blockingUntil(patience: .seconds(100)) {
            ((try? String(contentsOfFile: said, encoding: .utf8)) ?? "").hasSuffix("\n")
        }
        #expect(saysItWaits)
        #expect(result.withLock { $0 } == nil, "the writer finished while the turn was held")
        #expect(holder != nil)
        holder = nil
        #expect(finished.wait(timeout: .now() + 60) == .success)
        let imported = try #require(result.withLock { $0 })
        let stderr = (try? String(contentsOfFile: said, encoding: .utf8)) ?? ""
        #expect(imported.status == 0, "\(stderr)")
        #expect(stderr.hasPrefix("quotectl: waiting for pid \(getpid()) ("), "\(stderr)")
        #expect(stderr.contains(", which is writing \(store)\n"), "\(stderr)")
        #expect(imported.stdout.contains("custom.second: 1 quote"), "\(imported.stdout)")
    }
}
