import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport
import QuoteStore
import QuoteSystem

/// Another process's turn to write, as a writer meets it: a POSIX lock is the whole process's, so
/// the holder here is this test process and the writer a quotectl process of its own.
@Suite(.offThePool, .timeLimit(.minutes(2))) struct WriterTurnEndToEndTests {
    let scratch = Scratch()

    @Test func aWriterSaysWhoseTurnItWaitsForAndThenWrites() throws {
        var quotectl = BinaryRunner("quotectl", home: scratch.path)
        let store = scratch.file("q.db")
        quotectl.environment["QUOTED_DB"] = store
        let list = scratch.write("list.json", #"[{"id": 1, "text": "Written once the turn was over."}]"#)
        #expect(try quotectl.run(["import", list, "--name", "first"]).status == 0)

        var holder: ProcessLock? = try ProcessLock.take(WriterTurn.lockPath(of: store), creating: ProcessLock.Creation(mode: 0o644))
        let runner = quotectl
        let finished = DispatchSemaphore(value: 0)
        let result = Mutex<BinaryRunner.Result?>(nil)
        DispatchQueue.global().async {
            let imported = try? runner.run(["import", list, "--name", "second"])
            result.withLock { $0 = imported }
            finished.signal()
        }
        // The writer waits while the turn is held (its patience is two minutes), then writes; held
        // for 5 s, as a loaded two-core run can take a second to start a debug build.
        #expect(finished.wait(timeout: .now() + 5) == .timedOut)
        #expect(holder != nil)
        holder = nil
        #expect(finished.wait(timeout: .now() + 30) == .success)
        let imported = try #require(result.withLock { $0 })
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.hasPrefix("quotectl: waiting for pid \(getpid()) ("), "\(imported.stderr)")
        #expect(imported.stderr.contains(", which is writing \(store)\n"), "\(imported.stderr)")
        #expect(imported.stdout.contains("custom.second: 1 quote"), "\(imported.stdout)")
    }
}
