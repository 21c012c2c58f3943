import Foundation
import Testing
@testable import QuoteStore
@testable import QuoteModels
@testable import QuoteText
import TestSupport

@Suite struct MigrationTests {
    let folder = TemporaryFolder()

    /// Everything the schema defines, to compare two stores.
    func schema(of database: Database) throws -> [String] {
        let statement = try database.prepare(
            "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
        var rows: [String] = []
        while try statement.step() { rows.append(statement.string(0)) }
        return rows
    }

    @Test func migrationsAreEmbeddedInOrderWithDistinctVersions() {
        let versions = Migrator.embedded.migrations.map(\.version)
        #expect(versions.count >= 4)
        #expect(versions == Array(1...versions.count))
        #expect(Migrator.embedded.migrations[0].name == "0001_quotes")
        #expect(Migrator.embedded.migrations[0].sql.contains("CREATE TABLE quotes"))
        // What readers check a store against, written by the embedder beside the list.
        #expect(Migrator.embeddedLatest == Migrator.embedded.latestVersion)
        #expect(Migrator.embeddedLatest == versions.last)
    }

    @Test func aFreshStoreHasTheLatestSchemaAndTheStarterSet() throws {
        let store = try Store(path: folder.file("q.db"), access: .read)
        #expect(try Migrator.appliedVersion(of: store.database) == Migrator.embedded.latestVersion)
        let recorded = try store.database.scalarInt("SELECT count(*) FROM schema_migrations")
        #expect(recorded == Migrator.embedded.migrations.count)
        let builtin = try store.database.scalarInt("SELECT count(*) FROM quotes WHERE source = 'builtin'") ?? 0
        #expect(builtin >= 200)
        #expect(try store.database.scalarInt("SELECT count(DISTINCT lang) FROM quotes") == 2)
    }

    /// A store migrated up to, not including, the migration `name`: the schema a user upgrades from.
    func store(named file: String, before name: String) throws -> Database {
        let old = try Database(path: folder.file(file), mode: .readWriteCreate)
        let before = try #require(Migrator.embedded.migrations.firstIndex { $0.name == name })
        #expect(before > 0)
        try Migrator(migrations: Array(Migrator.embedded.migrations.prefix(before))).migrate(old)
        return old
    }

    /// Lists stored under the reflowing readers are read again once (their last body forgotten),
    /// so a fortune file's rows come to hold it as written; other sources keep their validators.
    @Test func customListsAreReadAgainAfterTheUpgradeToTextsAsWritten() throws {
        let old = try store(named: "reread.db", before: "0013_reread_lists_as_written")
        for name in ["custom.art", "upbit"] {
            try old.execute("INSERT OR IGNORE INTO sources (name, kind, created_at) VALUES ('\(name)', '\(name == "upbit" ? "upbit" : "custom")', 1)")
            try old.execute("""
                INSERT INTO http_validators (source, url, etag, last_modified, body_sha256, updated_at)
                VALUES ('\(name)', 'https://example.org/\(name)', '"e"', 'then', 'abc', 1)
                """)
        }
        try Migrator.embedded.migrate(old)
        #expect(try old.scalarString("SELECT coalesce(body_sha256, etag, last_modified, 'forgotten') FROM http_validators WHERE source = 'custom.art'") == "forgotten")
        #expect(try old.scalarString("SELECT body_sha256 || etag || last_modified FROM http_validators WHERE source = 'upbit'") == "abc\"e\"then")
    }

    /// A store of the schema before `source_pick` gets each source's quotes numbered 1...count
    /// in row-id order, and later writes keep them so.
    @Test func anUpgradeNumbersEachSourcesQuotes() throws {
        let old = try store(named: "numbered.db", before: "0014_source_picks")
        for name in ["custom.a", "custom.b"] {
            try old.execute("INSERT INTO sources (name, kind, created_at) VALUES ('\(name)', 'custom', 1)")
        }
        for index in 0..<30 {
            try old.execute("""
                INSERT INTO quotes (source, upstream_id, text, first_seen, last_seen, content_hash, length)
                VALUES ('custom.\(index % 3 == 0 ? "a" : "b")', '\(index)', 'quote \(index)', 1, 1, \(index), 8)
                """)
        }
        try Migrator.embedded.migrate(old)
        let numbered = try old.prepare("SELECT source, group_concat(source_pick) FROM (SELECT source, source_pick FROM quotes ORDER BY source, id) GROUP BY source")
        var numbers: [String: String] = [:]
        while try numbered.step() { numbers[numbered.string(0)] = numbered.string(1) }
        #expect(numbers["custom.a"] == (1...10).map(String.init).joined(separator: ","))
        #expect(numbers["custom.b"] == (1...20).map(String.init).joined(separator: ","))
        try old.execute("DELETE FROM quotes WHERE source = 'custom.a' AND upstream_id = '0'")
        #expect(try old.scalarInt("SELECT max(source_pick) FROM quotes WHERE source = 'custom.a'") == 9)
        #expect(try old.scalarInt("SELECT count(DISTINCT source_pick) FROM quotes WHERE source = 'custom.a'") == 9)
    }

    /// A store of the schema before `length_pick` gets each length's quotes numbered 1...count
    /// in row-id order and counted, and later writes keep them so.
    @Test func anUpgradeNumbersAndCountsEachLengthsQuotes() throws {
        let old = try store(named: "lengths.db", before: "0015_length_picks")
        try old.execute("INSERT INTO sources (name, kind, created_at) VALUES ('custom.a', 'custom', 1)")
        for index in 0..<30 {
            let text = "quote " + String(repeating: "x", count: index % 3)
            try old.execute("""
                INSERT INTO quotes (source, upstream_id, text, first_seen, last_seen, content_hash, length)
                VALUES ('custom.a', '\(index)', '\(text)', 1, 1, \(index), \(text.count))
                """)
        }
        try Migrator.embedded.migrate(old)
        let numbered = try old.prepare("SELECT length, group_concat(length_pick) FROM (SELECT length, length_pick FROM quotes ORDER BY length, id) GROUP BY length")
        var numbers: [Int: String] = [:]
        while try numbered.step() { numbers[numbered.int(0)] = numbered.string(1) }
        #expect(numbers == [6: "1,2,3,4,5,6,7,8,9,10", 7: "1,2,3,4,5,6,7,8,9,10", 8: "1,2,3,4,5,6,7,8,9,10"])
        #expect(try old.scalarString("SELECT group_concat(length || ':' || quotes) FROM (SELECT * FROM quote_lengths ORDER BY length)") == "6:10,7:10,8:10")
        try old.execute("DELETE FROM quotes WHERE upstream_id = '0'")
        try old.execute("UPDATE quotes SET length = 9 WHERE upstream_id = '1'")
        #expect(try old.scalarString("SELECT group_concat(length || ':' || quotes) FROM (SELECT * FROM quote_lengths ORDER BY length)") == "6:9,7:9,8:10,9:1")
        #expect(try old.scalarInt("SELECT count(DISTINCT length_pick) FROM quotes WHERE length = 6 AND length_pick BETWEEN 1 AND 9") == 9)
        #expect(try old.scalarInt("SELECT length_pick FROM quotes WHERE upstream_id = '1'") == 1)
    }

    /// A reader that upgrades a store with no side files (a copied or restored file) draws through
    /// the new schema: the connection that read the old one is not kept.
    @Test func aReaderThatUpgradedAStoreDrawsThroughItsNewSchema() throws {
        do {
            let old = try store(named: "copied.db", before: "0015_length_picks")
            try old.execute("INSERT INTO sources (name, kind, created_at) VALUES ('custom.a', 'custom', 1)")
            for index in 0..<20 {
                try old.execute("""
                    INSERT INTO quotes (source, upstream_id, text, first_seen, last_seen, content_hash, length)
                    VALUES ('custom.a', '\(index)', 'quote \(index)', 1, 1, \(index), \(7 + (index > 9 ? 1 : 0)))
                    """)
            }
            old.checkpointAndTruncate()
        }
        let path = folder.file("copied.db")
        // As a copy of the file alone leaves it (its WAL is empty, checkpointed).
        for side in ["-wal", "-shm"] { try FileManager.default.removeItem(atPath: path + side) }
        let reader = try Store(path: path, access: .read)
        var generator = SeededGenerator(state: 3)
        let picker = QuotePicker(database: reader.database)
        let quote = try #require(try picker.random(QuoteFilter(source: "custom.a", maxLength: 7), using: &generator))
        #expect(quote.length == 7)
        #expect(try picker.random(QuoteFilter(maxLength: 8, minLength: 8), using: &generator)?.length == 8)
    }

    @Test(arguments: 1..<Migrator.embedded.migrations.count)
    func upgradesFromEveryEarlierVersion(appliedBefore: Int) throws {
        let fresh = TemporaryFolder()
        let reference = try Database(path: fresh.file("ref.db"), mode: .readWriteCreate)
        try Migrator.embedded.migrate(reference)

        let old = try Database(path: folder.file("old.db"), mode: .readWriteCreate)
        try Migrator(migrations: Array(Migrator.embedded.migrations.prefix(appliedBefore))).migrate(old)
        #expect(try Migrator.appliedVersion(of: old) == appliedBefore)
        // Data written under the old schema survives the upgrade.
        try old.execute("INSERT INTO sources (name, kind, created_at) VALUES ('custom.old', 'custom', 1)")
        try old.execute("""
            INSERT INTO quotes (source, upstream_id, text, first_seen, last_seen, content_hash, length)
            VALUES ('custom.old', '1', 'kept', 1, 1, 0, 4)
            """)
        try Migrator.embedded.migrate(old)
        #expect(try Migrator.appliedVersion(of: old) == Migrator.embedded.latestVersion)
        #expect(try schema(of: old) == schema(of: reference))
        #expect(try old.scalarString("SELECT text FROM quotes WHERE source = 'custom.old'") == "kept")
    }

    @Test func aStoreFromANewerQuotedIsRefused() throws {
        let path = folder.file("q.db")
        _ = try Store(path: path, access: .write)
        try Database(path: path, mode: .readWrite).execute("PRAGMA user_version = 99")
        let error = #expect(throws: StoreError.self) { try Store(path: path, access: .read) }
        #expect(error == .newerSchema(path: path, found: 99, supported: Migrator.embedded.latestVersion))
        #expect(error?.description.contains("newer quoted") == true)
    }

    @Test func aMigrationEditedAfterItWasAppliedIsReported() throws {
        let database = try Database(path: folder.file("q.db"), mode: .readWriteCreate)
        try Migrator.embedded.migrate(database)
        var edited = Migrator.embedded.migrations
        edited[1] = EmbeddedMigration(name: edited[1].name, sql: edited[1].sql + "\n-- edited")
        let error = #expect(throws: StoreError.self) { try Migrator(migrations: edited).migrate(database) }
        #expect(error == .migrationChanged(path: database.path, names: [edited[1].name]))
    }

    @Test func aFileThatIsNotSQLiteIsRefusedAndLeftUntouched() throws {
        let path = folder.file("q.db")
        let garbage = Data(repeating: 0x41, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: path))
        for access in [Store.Access.read, .write] {
            let error = #expect(throws: StoreError.self) { try Store(path: path, access: access) }
            #expect(error == .notADatabase(path: path))
            #expect(error?.exitCode == 74)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test func anotherApplicationsDatabaseIsRefused() throws {
        let path = folder.file("other.db")
        try Database(path: path, mode: .readWriteCreate).execute("CREATE TABLE notes (x TEXT)")
        let error = #expect(throws: StoreError.self) { try Store(path: path, access: .read) }
        #expect(error == .foreignDatabase(path: path))
    }

    @Test func aStoreThatCannotBeCreatedNamesThePath() throws {
        let path = "/dev/null/quoted/quotes.db"
        let error = #expect(throws: StoreError.self) { try Store(path: path, access: .read) }
        #expect(error?.description.hasPrefix(path) == true)
        #expect(error?.exitCode == 66)
    }

    @Test func theStarterSetLoadsOnceEvenWhenOpenedAgain() throws {
        let path = folder.file("q.db")
        let first = try Store(path: path, access: .write)
        let count = try first.database.scalarInt("SELECT count(*) FROM quotes")
        let second = try Store(path: path, access: .write)
        #expect(try second.database.scalarInt("SELECT count(*) FROM quotes") == count)
    }
}

/// Migrations run as GRDB runs them: foreign keys off, then checked before each commit.
@Suite struct MigrationForeignKeyTests {
    let folder = TemporaryFolder()

    func migrations(_ extra: String) -> Migrator {
        Migrator(migrations: [
            EmbeddedMigration(name: "0001_base", sql: """
                CREATE TABLE parents (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE children (id INTEGER PRIMARY KEY, parent INTEGER NOT NULL REFERENCES parents(id) ON DELETE CASCADE);
                INSERT INTO parents VALUES (1, 'p'); INSERT INTO children VALUES (10, 1);
                """),
            EmbeddedMigration(name: "0002_change", sql: extra),
        ])
    }

    /// A table rebuild (new table, copy, drop, rename) must not cascade into its children.
    @Test func aTableRebuildKeepsTheRowsThatReferToIt() throws {
        let database = try Database(path: folder.file("rebuild.db"), mode: .readWriteCreate)
        try migrations("""
            CREATE TABLE parents_new (id INTEGER PRIMARY KEY, name TEXT, extra TEXT);
            INSERT INTO parents_new (id, name) SELECT id, name FROM parents;
            DROP TABLE parents;
            ALTER TABLE parents_new RENAME TO parents;
            """).migrate(database)
        #expect(try database.scalarInt("SELECT count(*) FROM children") == 1)
        #expect(try database.scalarInt("PRAGMA foreign_keys") == 1)
    }

    @Test func aMigrationThatLeavesDanglingReferencesFails() throws {
        let database = try Database(path: folder.file("dangling.db"), mode: .readWriteCreate)
        let error = #expect(throws: StoreError.self) {
            try migrations("DELETE FROM parents").migrate(database)
        }
        guard case .migrationFailed(let name, let underlying)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(name == "0002_change")
        #expect(underlying.resultCode == .constraint)
        #expect(try database.scalarInt("SELECT count(*) FROM parents") == 1)
        #expect(try Migrator.appliedVersion(of: database) == 1)
    }
}
