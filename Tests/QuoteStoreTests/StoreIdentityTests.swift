import Foundation
import Testing
@testable import QuoteStore
@testable import QuoteModels
@testable import QuoteText
import TestSupport

/// The store is only ever a quoted store: another program's file is left byte for byte,
/// an empty file becomes a store (unless the caller may make none), a store from a newer
/// quoted is refused.
@Suite struct StoreIdentityTests {
    let folder = TemporaryFolder()

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test(arguments: [Store.Access.read, .write])
    func anotherProgramsDatabaseIsLeftExactlyAsItWas(access: Store.Access) throws {
        let path = folder.file("notes.db")
        do {
            let other = try Database(path: path, mode: .readWriteCreate)
            try other.execute("PRAGMA journal_mode = DELETE; CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('mine')")
        }
        let before = try #require(bytes(path))
        let error = #expect(throws: StoreError.self) { try Store(path: path, access: access) }
        #expect(error == .foreignDatabase(path: path))
        #expect(error?.exitCode == 74)
        #expect(bytes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test func aForeignApplicationIDIsRefusedFromTheHeaderAlone() throws {
        let path = folder.file("app.db")
        do {
            let other = try Database(path: path, mode: .readWriteCreate)
            try other.execute("PRAGMA journal_mode = DELETE; PRAGMA application_id = 42; CREATE TABLE t (x)")
        }
        let before = try #require(bytes(path))
        #expect(throws: StoreError.foreignDatabase(path: path)) { try Store(path: path, access: .write) }
        #expect(bytes(path) == before)
    }

    @Test func aFileThatIsNotSQLiteIsLeftAlone() throws {
        let path = folder.file("text.db")
        try Data("just some text, long enough to look like a header if one squints at it".utf8).write(to: URL(fileURLWithPath: path))
        let before = try #require(bytes(path))
        #expect(throws: StoreError.notADatabase(path: path)) { try Store(path: path, access: .write) }
        #expect(bytes(path) == before)
    }

    @Test func anEmptyFileBecomesAStoreWithTheStarterSet() throws {
        let path = folder.file("empty.db")
        FileManager.default.createFile(atPath: path, contents: Data())
        let store = try Store(path: path, access: .read)
        #expect(try store.database.scalarInt("SELECT count(*) FROM quotes WHERE source = 'builtin'") ?? 0 >= 200)
        #expect(try store.database.scalarInt("PRAGMA application_id") == Store.applicationID)
    }

    @Test func anSQLiteFileWithNoSchemaBecomesAStore() throws {
        let path = folder.file("blank.db")
        try Database(path: path, mode: .readWriteCreate).execute("PRAGMA user_version = 0")
        let store = try Store(path: path, access: .write)
        #expect(try store.database.scalarInt("SELECT count(*) FROM quotes") ?? 0 >= 200)
    }

    /// Each file in the folder: its size, modification time and bytes.
    func listing() throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.file(name))
            result[name] = "\(attributes[.size] ?? "?") \(attributes[.modificationDate] ?? "?") \(bytes(folder.file(name))?.base64EncodedString() ?? "?")"
        }
        return result
    }

    /// A caller that may not make a store (`--no-create`, `quotectl check`, a path named for
    /// reading) meets a file that holds none yet: refused as no store (66), decided on the header
    /// and an immutable look, so the folder is as it was — no schema, no -wal, -shm or -lock.
    @Test(arguments: [Store.Access.read, .write])
    func aFileThatHoldsNoStoreIsNeverFilledWhenNoneMayBeMade(access: Store.Access) throws {
        let zero = folder.file("zero.db"), blank = folder.file("blank.db")
        #expect(FileManager.default.createFile(atPath: zero, contents: Data()))
        try Database(path: blank, mode: .readWriteCreate).execute("PRAGMA journal_mode = DELETE; VACUUM")
        let before = try listing()
        #expect(before.keys.sorted() == ["blank.db", "zero.db"])
        for path in [zero, blank] {
            let error = #expect(throws: StoreError.self) { try Store(path: path, access: access, creating: false) }
            #expect(error == .noStore(path: path))
            #expect(error?.exitCode == 66)
            #expect(error?.description.hasPrefix("\(path): holds no quoted store") == true)
        }
        let none = folder.file("none.db")
        #expect(throws: StoreError.missing(path: none, reason: "no such file")) { try Store(path: none, access: access, creating: false) }
        #expect(try listing() == before)
        // A store that is there opens as ever.
        let made = folder.file("made.db")
        _ = try Store(path: made, access: .write)
        #expect(try Store(path: made, access: access, creating: false).database.scalarInt("SELECT count(*) FROM quotes") ?? 0 > 0)
    }

    /// A migration row newer than the binary while `user_version` is current (written by hand:
    /// each migration sets both): refused by a writer. A reader taking the way in of a store in
    /// use (its side files are there: a writer keeps them) trusts the header's user_version and
    /// reads; one with a newer user_version is refused there too, and so is one with an older
    /// user_version, which the reader would upgrade — before anything is changed.
    @Test func aMigrationRowNewerThanTheBinaryIsRefusedByAWriter() throws {
        let path = folder.file("newer.db")
        do {
            let store = try Store(path: path, access: .write)
            try store.database.execute("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (99, '0099_future', 'x', 0)")
        }
        #expect(FileManager.default.fileExists(atPath: path + "-wal") && FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(Store.readerOfAStoreInUse(path, busyTimeoutMilliseconds: 1_000) != nil)
        let error = #expect(throws: StoreError.self) { try Store(path: path, access: .write) }
        #expect(error == .newerSchema(path: path, found: 99, supported: Migrator.embedded.latestVersion))
        #expect(try Store(path: path, access: .read).database.scalarInt("SELECT count(*) FROM quotes") ?? 0 > 0)
        let writer = try Database(path: path, mode: .readWrite)
        try writer.execute("PRAGMA user_version = 99")
        #expect(Store.readerOfAStoreInUse(path, busyTimeoutMilliseconds: 1_000) != nil)
        let newer = #expect(throws: StoreError.self) { try Store(path: path, access: .read) }
        #expect(newer == .newerSchema(path: path, found: 99, supported: Migrator.embedded.latestVersion))
        // Lowered by hand (or an odd restore): the reader would migrate, so it reads the table first.
        try writer.execute("PRAGMA user_version = \(Migrator.embeddedLatest - 1)")
        writer.checkpointAndTruncate()
        let before = try #require(bytes(path))
        let older = #expect(throws: StoreError.self) { try Store(path: path, access: .read) }
        #expect(older == .newerSchema(path: path, found: 99, supported: Migrator.embedded.latestVersion))
        #expect(bytes(path) == before)
        // Our mark and a version, but no migrations table: not our store, whoever opens it.
        try writer.execute("DROP TABLE schema_migrations")
        writer.checkpointAndTruncate()
        #expect(throws: StoreError.foreignDatabase(path: path)) { try Store(path: path, access: .read) }
    }

    /// A reader's way in to a store in use (`readerOfAStoreInUse`) is for a WAL store of ours
    /// with both side files alone; anything else goes to the careful look, which decides as ever.
    @Test func onlyAWALStoreOfOursWithItsSideFilesIsOpenedStraightAway() throws {
        func wayIn(_ path: String) -> Bool { Store.readerOfAStoreInUse(path, busyTimeoutMilliseconds: 1_000) != nil }
        let ours = folder.file("ours.db")
        _ = try Store(path: ours, access: .write)
        #expect(wayIn(ours))
        try FileManager.default.removeItem(atPath: ours + "-shm")
        #expect(!wayIn(ours), "no -shm: the reader would create one")
        #expect(try Store(path: ours, access: .read).database.scalarInt("SELECT count(*) FROM quotes") ?? 0 > 0)
        // Another program's WAL database, in use (its writer holds the side files open).
        let notes = folder.file("notes.db")
        let other = try Database(path: notes, mode: .readWriteCreate)
        try other.execute("CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('mine')")
        #expect(FileManager.default.fileExists(atPath: notes + "-wal") && FileManager.default.fileExists(atPath: notes + "-shm"))
        let before = try #require(bytes(notes))
        #expect(!wayIn(notes))
        #expect(throws: StoreError.foreignDatabase(path: notes)) { try Store(path: notes, access: .read) }
        #expect(bytes(notes) == before)
        // Side files beside what is no database, and beside a folder.
        let text = folder.file("text.db")
        try Data(String(repeating: "not a header ", count: 10).utf8).write(to: URL(fileURLWithPath: text))
        let directory = folder.file("dir.db")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        for path in [text, directory] {
            for side in ["-wal", "-shm"] { #expect(FileManager.default.createFile(atPath: path + side, contents: Data())) }
            #expect(!wayIn(path), "\(path)")
        }
        #expect(throws: StoreError.notADatabase(path: text)) { try Store(path: text, access: .read) }
    }

    @Test func aStoreFromBeforeTheApplicationIDIsStillOurs() throws {
        let path = folder.file("old.db")
        do {
            let old = try Database(path: path, mode: .readWriteCreate)
            try Migrator(migrations: Array(Migrator.embedded.migrations.prefix(5))).migrate(old)
        }
        let store = try Store(path: path, access: .write)
        #expect(try store.database.scalarInt("PRAGMA application_id") == Store.applicationID)
    }

    /// A folder this user cannot write (here /proc/sys, read-only even for root in these
    /// containers): the message says so, and the exit code is 73, not "no store there" (66).
    @Test(.enabled(if: access("/proc/sys", W_OK) != 0 && access("/proc/sys", F_OK) == 0))
    func aReadOnlyFolderIsNamedAsSuch() {
        let path = "/proc/sys/quotes.db"
        let error = #expect(throws: StoreError.self) { try Store(path: path, access: .write) }
        #expect(error?.exitCode == 73)
        #expect(error?.description.contains("folder /proc/sys") == true, "\(String(describing: error))")
    }

    @Test func storeErrorsKeepTheirKind() {
        #expect(StoreError(DatabaseError(extendedCode: 5, message: "database is locked"), path: "/s").exitCode == 75)
        #expect(StoreError(DatabaseError(extendedCode: 13, message: "database or disk is full"), path: "/s") == .full(path: "/s"))
        #expect(StoreError.full(path: "/s").description == "/s: disk full; nothing was written")
        #expect(StoreError.cannotCreate(path: "/ro/q.db", reason: "folder /ro is read-only").exitCode == 73)
    }

    /// A big write with a reader open throughout: the WAL is truncated afterwards, so the
    /// next reader does not recover it all over again.
    @Test func theWALIsTruncatedAfterABigWriteEvenWithAReaderOpen() throws {
        let path = folder.file("wal.db")
        let writer = try Store(path: path, access: .write)
        let reader = try Database(path: path, mode: .readOnly)
        #expect(try reader.scalarInt("SELECT count(*) FROM quotes") ?? 0 > 0)
        let quotes = (1...20_000).map { Quote(source: "custom.big", upstreamID: String($0), text: "Quote number \($0) " + String(repeating: "x", count: 200)) }
        try writer.database.transaction { () throws(StoreError) in
            let quoteWriter = QuoteWriter(database: writer.database)
            try quoteWriter.ensureSource("custom.big", now: 1)
            try quoteWriter.apply(quotes, to: "custom.big", removeMissing: true, now: 1)
        }
        let walBefore = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(walBefore > 1 << 20)
        #expect(writer.database.checkpointAndTruncate())
        let walAfter = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(walAfter == 0)
        #expect(try reader.scalarInt("SELECT count(*) FROM quotes WHERE source = 'custom.big'") == 20_000)
    }
}
