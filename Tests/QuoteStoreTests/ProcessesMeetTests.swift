import Foundation
import Glibc
import Testing
@testable import QuoteStore
@testable import QuoteModels
@testable import QuoteText
import QuoteSystem
import TestSupport

/// What holds when processes meet one store: this process's SQLite locks survive its own look at
/// the file, writers take turns and say who holds the turn, a newer schema is refused by either
/// mark before anything is created, and a reader of a store without side files leaves none.
@Suite(.timeLimit(.minutes(10))) struct ProcessesMeetTests {
    let folder = TemporaryFolder()

    /// The POSIX locks `pid` holds on the file `path` names, as /proc/locks lists them.
    static func locks(of pid: Int32, on path: String) throws -> [String] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [] }
        let inode = ":\(status.st_ino) "
        let table = try String(contentsOfFile: "/proc/locks", encoding: .utf8)
        return table.split(separator: "\n").map(String.init).filter { $0.contains(" \(pid) ") && $0.contains(inode) }
    }

    /// A connection reading a WAL store holds a SHARED lock on the file. The store's own looks at
    /// its header, made while that connection is open, keep it; a close(2) of any other descriptor
    /// of the file drops it (shown last, so this test can fail: SQLite then believes it still holds
    /// the lock, and this process's connections stay unlocked until the last one closes).
    @Test func lookingAtTheHeaderKeepsTheLocksOfThisProcessConnections() throws {
        let pid = getpid()
        // This process runs hundreds of other tests beside this one, some of which spawn programs
        // through Foundation, whose descriptor handling has closed numbers it no longer owned: such
        // a close drops our locks before anything here ran. Start from a store whose lock this
        // process visibly holds; in a run where none can be seen, there is nothing to learn.
        var opened: (path: String, writer: Store, reader: Database)?
        for attempt in 1...5 where opened == nil {
            let path = folder.file("quotes-\(attempt).db")
            let writer = try Store(path: path, access: .write)
            let reader = try Database(path: path, mode: .readOnly)
            _ = try reader.scalarInt("SELECT count(*) FROM quotes")
            if try !Self.locks(of: pid, on: path).isEmpty { opened = (path, writer, reader) }
        }
        guard let (path, writer, reader) = opened else { return }
        for access in [Store.Access.read, .write] {
            let other = try Store(path: path, access: access)
            _ = try other.database.scalarInt("SELECT count(*) FROM quotes")
            _ = try DatabaseFile.prefix(path, count: 100)
            _ = try Store.identify(path, access: access)
            _ = try Store.readingMode(path)
            #expect(try !Self.locks(of: pid, on: path).isEmpty, "\(access)")
        }
        try FileDescriptor.open(path, O_RDONLY).close()
        #expect(try Self.locks(of: pid, on: path).isEmpty, "a plain close(2) drops them: the hazard this guards against")
        withExtendedLifetime((writer, reader)) {}
    }

    /// A process holding the lock file the way another quoted would (a POSIX write lock).
    final class Holder {
        let process = Process()
        let output = Pipe()
        init(_ path: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", """
                import fcntl, sys, time
                f = open(sys.argv[1], 'a+'); fcntl.lockf(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)
                """, path]
            process.standardOutput = output
            try process.run()
            _ = output.fileHandleForReading.availableData  // "held"
        }
        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    @Test func aWriterWaitsItsTurnAndNamesTheProcessThatHoldsIt() throws {
        let path = folder.file("turn.db-lock")
        let holder = try Holder(path)
        var waitedFor: Int32?
        let started = ContinuousClock.now
        #expect(throws: ProcessLock.Failure.heldBy(pid: holder.process.processIdentifier)) {
            try ProcessLock.take(path, creating: .init(mode: 0o644), patience: .milliseconds(300)) { waitedFor = $0 }
        }
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(waitedFor == holder.process.processIdentifier)
        #expect(ProcessLock.processName(holder.process.processIdentifier)?.hasPrefix("python3") == true)
        holder.stop()

        // This process's holders share one lock; the file is free again once the last lets go.
        var first: ProcessLock? = try ProcessLock.take(path, creating: .init(mode: 0o644))
        var second: ProcessLock? = try ProcessLock.take(path, creating: .init(mode: 0o644))
        first = nil
        #expect(throws: (any Error).self) { try Holder.tryLock(path) }
        second = nil
        try Holder.tryLock(path)
        withExtendedLifetime((first, second)) {}
    }

    @Test func theStoreSaysWhichProcessHoldsItsWriterTurn() throws {
        let path = folder.file("quotes.db")
        _ = try Store(path: path, access: .write)
        let holder = try Holder(WriterTurn.lockPath(of: path))
        defer { holder.stop() }
        let error = #expect(throws: StoreError.self) { try WriterTurn.take(path, patience: .milliseconds(100)) }
        #expect(error?.exitCode == 75)
        #expect(error?.description.contains("pid \(holder.process.processIdentifier) (python3)") == true, "\(String(describing: error))")
        // Readers never wait for it.
        #expect(try Store(path: path, access: .read).database.scalarInt("SELECT count(*) FROM quotes") ?? 0 > 0)
    }

    /// `schema_migrations` holding a newer version than `user_version` says: refused for writing,
    /// and for reading where the careful look reads the schema (a WAL store without its side
    /// files), and nothing created beside the store. A reader of a current store in use trusts
    /// user_version (StoreIdentityTests).
    @Test(arguments: [false, true])
    func aNewerMigrationRowIsRefused(sideFiles: Bool) throws {
        let path = folder.file("newer-row.db")
        do {
            let store = try Store(path: path, access: .write)
            try store.database.execute("INSERT INTO schema_migrations VALUES (99, '0099_future', 'x', 0)")
            store.database.checkpointAndTruncate()
        }
        if !sideFiles {
            for side in ["-wal", "-shm", "-lock"] { try FileManager.default.removeItem(atPath: path + side) }
        }
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        for access in sideFiles ? [Store.Access.write] : [.read, .write] {
            let error = #expect(throws: StoreError.self) { try Store(path: path, access: access) }
            #expect(error == .newerSchema(path: path, found: 99, supported: Migrator.embeddedLatest), "\(access)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == listing, "\(access)")
        }
    }

    /// A store copied without its side files is read as it is: nothing appears beside it.
    @Test func aReaderOfAStoreWithoutSideFilesLeavesNone() throws {
        let path = folder.file("copied.db")
        do {
            let store = try Store(path: path, access: .write)
            store.database.checkpointAndTruncate()
        }
        for side in ["-wal", "-shm", "-lock"] { try FileManager.default.removeItem(atPath: path + side) }
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let reader = try Store(path: path, access: .read)
        #expect(try reader.database.scalarInt("SELECT count(*) FROM quotes") ?? 0 > 200)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == before)
    }
}

extension ProcessesMeetTests.Holder {
    /// Takes and drops the lock from another process at once; throws when it is held.
    static func tryLock(_ path: String) throws {
        struct Held: Error {}
        if try !anotherProcessCanLock(path) { throw Held() }
    }
}
