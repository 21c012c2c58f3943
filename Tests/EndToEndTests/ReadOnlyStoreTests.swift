import Foundation
import Testing
import TestSupport

/// A store another user reads, as a process of that user's: the folder and the files are not
/// theirs to write (the commands that leave a store untouched: UntouchedStoreTests, in-process).
@Suite(.offThePool, .timeLimit(.minutes(10))) struct ReadOnlyStoreTests {
    /// A WAL store without its -shm in a folder this user may not write: read all the same
    /// (nothing can be writing it), or told what to do — never SQLite's raw error 14.
    @Test(.enabled(if: getuid() == 0)) func aReadOnlyFolderWithoutItsShm() throws {
        let scratch = Scratch()
        let folder = scratch.file("ro")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = folder + "/quotes.db"
        var importer = BinaryRunner("quotectl", home: scratch.path)
        importer.environment["QUOTED_DB"] = store
        #expect(try importer.run(["import", "-", "--name", "mine"], stdin: #"[{"id": 1, "text": "Read me anyway."}]"#).status == 0)
        for side in ["-wal", "-shm"] { try FileManager.default.removeItem(atPath: store + side) }
        chmod(scratch.path, 0o755)
        chmod(folder, 0o555)
        chmod(store, 0o644)
        defer { chmod(folder, 0o755) }
        let nobody = BinaryRunner("setpriv", home: "/nonexistent", path: "/usr/bin/setpriv")
        let quotectl = BinaryRunner.productsFolder.appendingPathComponent("quotectl").path
        let read = try nobody.run(["--reuid=65534", "--regid=65534", "--clear-groups", quotectl, "--db", store, "random", "--source", "custom.mine"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("Read me anyway."))
        #expect(!FileManager.default.fileExists(atPath: store + "-shm"))
        // With a WAL left behind a writer may be at work: say so, and how to mend it.
        FileManager.default.createFile(atPath: store + "-wal", contents: Data(count: 32))
        let refused = try nobody.run(["--reuid=65534", "--regid=65534", "--clear-groups", quotectl, "--db", store, "random"])
        #expect(refused.status == 74, "\(refused.stderr)")
        #expect(refused.stderr.contains("is not writable by this user") && refused.stderr.contains("-shm"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("SQLite error"))
    }
}
