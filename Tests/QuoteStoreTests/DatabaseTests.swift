import CSQLite
import Foundation
import Testing
@testable import QuoteStore
@testable import QuoteModels
@testable import QuoteText
import QuoteBase
import TestSupport

@Suite(.timeLimit(.minutes(5))) struct DatabaseTests {
    let folder = TemporaryFolder()

    func open(_ mode: Database.Mode = .readWriteCreate, timeout: Int32 = 10_000) throws -> Database {
        try Database(path: folder.file("test.db"), mode: mode, busyTimeoutMilliseconds: timeout)
    }

    /// Left to the process's exit, a reader's connection keeps its descriptor when released (the
    /// exit closes it); a writer's is closed all the same (its close checkpoints), and so is a
    /// reader's that was not left.
    @Test func onlyAReaderIsLeftToTheExit() throws {
        let path = folder.file("test.db")
        do {
            let writer = try open()
            try writer.execute("CREATE TABLE t (n INTEGER)")
            writer.leaveToTheExit()
        }
        #expect(OpenFiles.descriptors(of: path) == 0)
        for mode in [Database.Mode.readOnly, .inspect] {
            do {
                let reader = try open(mode)
                #expect(try reader.scalarInt("SELECT count(*) FROM t") == 0)
            }
            #expect(OpenFiles.descriptors(of: path) == 0, "\(mode)")
        }
        do {
            let reader = try open(.readOnly)
            #expect(try reader.scalarInt("SELECT count(*) FROM t") == 0)
            reader.leaveToTheExit()
        }
        #expect(OpenFiles.descriptors(of: path) == 1)
    }

    /// A cancelling task sets the flag from another thread; the statement running then
    /// stops with `.interrupted`, and the transaction around it leaves no row behind.
    @Test func aSetFlagStopsTheRunningStatementAndRollsBack() throws {
        let database = try open()
        // A rollback journal, which appears at the transaction's first write (a WAL shows
        // nothing until a commit): without it the flag waited out its 10 s patience while the
        // statement computed on a cooperative thread.
        try database.execute("PRAGMA journal_mode = DELETE")
        try database.execute("CREATE TABLE t (n INTEGER)")
        let flag = CancelFlag()
        // Set once the transaction has written (its journal appears): the long statement runs next.
        let journal = folder.file("test.db-journal")
        let journalSeen = CancelFlag()  // a flag of its own: set when the journal appeared in time
        Thread.detachNewThread {
            if Waiting.blockingUntil({ access(journal, F_OK) == 0 }) { journalSeen.set() }
            flag.set()
        }
        let error = #expect(throws: StoreError.self) {
            database.interrupt(by: flag)
            defer { database.interrupt(by: nil) }
            try database.transaction { () throws(StoreError) in
                try database.storeOperation { () throws(DatabaseError) in
                    try database.execute("INSERT INTO t VALUES (1)")
                    // Runs for minutes unless interrupted.
                    try database.execute("""
                        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000000)
                        INSERT INTO t SELECT count(*) FROM c
                        """)
                }
            }
        }
        #expect(error?.resultCode == .interrupted)
        #expect(journalSeen.isSet, "the flag was set on its patience running out, not mid-statement")
        #expect(try database.scalarInt("SELECT count(*) FROM t") == 0)
        // The handler is gone afterwards: the connection works, and a set flag stops nothing more.
        try database.execute("INSERT INTO t VALUES (2)")
        #expect(try database.scalarInt("SELECT count(*) FROM t") == 1)
    }

    /// A step budget stops a statement that needs more (nil, the connection fine afterwards),
    /// lets one that needs fewer finish, and does not swallow a cancellation set meanwhile.
    @Test func aStepBudgetStopsOnlyWhatOutrunsIt() throws {
        let database = try open()
        let counting = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?1) SELECT count(*) FROM c"
        let long = try database.withinSteps(10_000) { () throws(DatabaseError) in try database.scalarInt(counting, [.integer(1_000_000)]) }
        #expect(long == nil)
        let short = try database.withinSteps(10_000_000) { () throws(DatabaseError) in try database.scalarInt(counting, [.integer(1_000)]) }
        #expect(short == 1_000)
        #expect(try database.withinSteps(Int.max) { () throws(DatabaseError) in try database.scalarInt("SELECT 7") } == 7)
        for steps in [0, -1, Int.min] {
            #expect(try database.withinSteps(steps) { () throws(DatabaseError) in try database.scalarInt("SELECT 7") } == nil, "\(steps)")
        }
        #expect(try database.scalarInt(counting, [.integer(100_000)]) == 100_000, "no budget is left behind")
        let flag = CancelFlag()
        flag.set()
        database.interrupt(by: flag)
        defer { database.interrupt(by: nil) }
        #expect(throws: DatabaseError.self) {
            _ = try database.withinSteps(1_000_000_000) { () throws(DatabaseError) in try database.scalarInt(counting, [.integer(1_000_000)]) }
        }
    }

    /// A bound on pages stops a statement that reads more of them from outside the connection's
    /// cache, however few steps it takes, and lets one that reads fewer (or none) finish.
    @Test func aPageBudgetStopsWhatReadsMorePages() throws {
        let writer = try open()
        try writer.execute("CREATE TABLE rows (x BLOB)")
        try writer.execute("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000) INSERT INTO rows SELECT randomblob(1000) FROM c")
        // A fresh connection: its cache is empty, and the 64 pages of rows are read from the file
        // (1 MB: they fit in the 2 MiB cache).
        let database = try open(.readOnly)
        let counting = "SELECT count(*) FROM rows WHERE length(x) > 0"
        let few = try database.withinSteps(Int.max, pages: 20) { () throws(DatabaseError) in try database.scalarInt(counting) }
        #expect(few == nil)
        let fresh = try open(.readOnly)
        let enough = try fresh.withinSteps(Int.max, pages: 100_000) { () throws(DatabaseError) in try fresh.scalarInt(counting) }
        #expect(enough == 1000)
        // Read now, the pages are in the cache: the same count reads none.
        #expect(try fresh.withinSteps(Int.max, pages: 0) { () throws(DatabaseError) in try fresh.scalarInt(counting) } == 1000)
        #expect(try database.withinSteps(Int.max, pages: Int.max) { () throws(DatabaseError) in try database.scalarInt(counting) } == 1000)
    }

    @Test func errorsCarryCodeMessageAndSQL() throws {
        let database = try open()
        let error = #expect(throws: DatabaseError.self) { try database.prepare("SELEC 1") }
        #expect(error?.code == SQLITE_ERROR)
        #expect(error?.message.contains("syntax error") == true)
        #expect(error?.sql == "SELEC 1")
    }

    /// A value count that is not the statement's parameter count is the program's mistake: refused
    /// before the statement runs, naming the SQL and both counts, never a value left NULL or dropped.
    @Test func tooFewBoundValuesAreRefusedBeforeAnythingRuns() throws {
        let database = try open()
        try database.execute("CREATE TABLE t (a INTEGER, b INTEGER)")
        let error = #expect(throws: DatabaseError.self) {
            try database.execute("INSERT INTO t VALUES (?1, ?2)", [.integer(1)])
        }
        #expect(error?.code == SQLITE_RANGE)
        #expect(error?.message == "1 value bound to a statement with 2 parameters")
        #expect(error?.sql == "INSERT INTO t VALUES (?1, ?2)")
        #expect(try database.scalarInt("SELECT count(*) FROM t") == 0)
    }

    @Test func tooManyBoundValuesAreRefusedBeforeAnythingRuns() throws {
        let database = try open()
        try database.execute("CREATE TABLE t (a INTEGER)")
        let error = #expect(throws: DatabaseError.self) {
            try database.execute("INSERT INTO t VALUES (?1)", [.integer(1), .integer(2)])
        }
        #expect(error?.code == SQLITE_RANGE)
        #expect(error?.message == "2 values bound to a statement with 1 parameter")
        #expect(error?.description.contains("INSERT INTO t VALUES (?1)") == true)
        #expect(try database.scalarInt("SELECT count(*) FROM t") == 0)
        #expect(throws: DatabaseError.self) { try database.scalarInt("SELECT ?1 + ?2", [.integer(1), .integer(2), .integer(3)]) }
    }

    /// What a public store operation throws keeps SQLite's error inside, to match on, and says
    /// what `.io` said before it: the store's path, then SQLite's error.
    @Test func aStoreErrorKeepsSQLitesErrorForMatching() {
        let unique = DatabaseError(extendedCode: DatabaseError.ExtendedCode.constraintUnique,
                                   message: "UNIQUE constraint failed: t.name", sql: "INSERT INTO t VALUES (?1)")
        let error = StoreError(unique, path: "/s")
        #expect(error == .database(path: "/s", unique))
        #expect(error.resultCode == .constraint)
        #expect(error.databaseError?.extendedCode == 2067)
        #expect(error.description == "/s: SQLite error 2067: UNIQUE constraint failed: t.name (while running: INSERT INTO t VALUES (?1))")
        #expect(error.exitCode == .ioError)
        #expect(StoreError(DatabaseError(extendedCode: SQLITE_BUSY, message: "database is locked"), path: "/s").resultCode == .busy)
        #expect(StoreError.invalidSourceName("x").resultCode == nil)
    }

    @Test func constraintErrorsCarryTheExtendedCodeButNeverTheBoundValues() throws {
        let database = try open()
        try database.execute("CREATE TABLE t (name TEXT UNIQUE)")
        try database.execute("INSERT INTO t VALUES (?1)", [.text("secret-value")])
        let error = #expect(throws: DatabaseError.self) {
            try database.execute("INSERT INTO t VALUES (?1)", [.text("secret-value")])
        }
        #expect(error?.extendedCode == DatabaseError.ExtendedCode.constraintUnique)
        #expect(error?.sql == "INSERT INTO t VALUES (?1)")
        #expect(error?.description.contains("secret-value") == false)
    }

    @Test func connectionsUseWALWithForeignKeysAndNormalSync() throws {
        let database = try open()
        #expect(try database.scalarString("PRAGMA journal_mode") == "wal")
        #expect(try database.scalarInt("PRAGMA foreign_keys") == 1)
        #expect(try database.scalarInt("PRAGMA synchronous") == 1)
    }

    /// New stores get 16 KiB pages; a store made with SQLite's 4 KiB keeps them and stays usable.
    @Test func aNewStoreHasSixteenKiBPagesAnOldOneKeepsItsOwn() throws {
        let database = try open()
        try database.execute("CREATE TABLE t (n INTEGER)")
        #expect(try database.scalarInt("PRAGMA page_size") == 16_384)

        var old: OpaquePointer?
        let path = folder.file("old.db")
        #expect(sqlite3_open(path, &old) == SQLITE_OK)
        #expect(sqlite3_exec(old, "PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; CREATE TABLE t (n INTEGER)", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(old)
        let reopened = try Database(path: path, mode: .readWrite)
        #expect(try reopened.scalarInt("PRAGMA page_size") == 4_096)
        try reopened.execute("INSERT INTO t VALUES (1)")
        #expect(try reopened.scalarInt("SELECT count(*) FROM t") == 1)
    }

    @Test func transactionRollsBackAndRethrowsTheBodysError() throws {
        let boom = StoreError.invalidSourceName("boom")
        let database = try open()
        try database.execute("CREATE TABLE t (x INTEGER)")
        #expect(throws: boom) {
            try database.transaction { () throws(StoreError) in
                try database.storeOperation { () throws(DatabaseError) in try database.execute("INSERT INTO t VALUES (1)") }
                throw boom
            }
        }
        #expect(try database.scalarInt("SELECT count(*) FROM t") == 0)
        #expect(!database.isInTransaction)
        try database.transaction { () throws(StoreError) in
            try database.storeOperation { () throws(DatabaseError) in try database.execute("INSERT INTO t VALUES (2)") }
        }
        #expect(try database.scalarInt("SELECT count(*) FROM t") == 1)
    }

    @Test func aWriterWaitsForTheBusyTimeoutThenFailsWithBusy() throws {
        let holder = try open()
        try holder.execute("CREATE TABLE t (x INTEGER); BEGIN IMMEDIATE; INSERT INTO t VALUES (1)")
        let waiter = try open(.readWrite, timeout: 300)
        let start = Date()
        let error = #expect(throws: DatabaseError.self) { try waiter.execute("BEGIN IMMEDIATE") }
        #expect(error?.resultCode == .busy)
        #expect(Date().timeIntervalSince(start) >= 0.25)
        try holder.execute("COMMIT")
    }

    @Test func aReaderIsNotBlockedByAnOpenWriteTransaction() throws {
        let writer = try open()
        try writer.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1); BEGIN IMMEDIATE; INSERT INTO t VALUES (2)")
        let reader = try open(.readOnly, timeout: 100)
        #expect(try reader.scalarInt("SELECT count(*) FROM t") == 1)  // the committed state
        try writer.execute("COMMIT")
        #expect(try reader.scalarInt("SELECT count(*) FROM t") == 2)
    }

    @Test func readOnlyConnectionsRefuseWrites() throws {
        try open().execute("CREATE TABLE t (x INTEGER)")
        let reader = try open(.readOnly)
        let error = #expect(throws: DatabaseError.self) { try reader.execute("INSERT INTO t VALUES (1)") }
        #expect(error?.code == SQLITE_READONLY)
    }

    @Test func typedBindingsRoundTrip() throws {
        let database = try open()
        let statement = try database.prepare("SELECT ?1, ?2, ?3, ?4, ?5")
        try statement.bind(42, at: 1)
        try statement.bind(2.5, at: 2)
        try statement.bind("행복 😀 \"q\"", at: 3)
        try statement.bind(nil as String?, at: 4)
        try statement.bind(true, at: 5)
        #expect(try statement.step())
        #expect(statement.int(0) == 42)
        #expect(statement.double(1) == 2.5)
        #expect(statement.string(2) == "행복 😀 \"q\"")
        #expect(statement.optionalString(3) == nil)
        #expect(statement.int(4) == 1)
    }
}
