import QuoteModels
import CSQLite
import QuoteBase
/// One `Migrations/NNNN_name.sql` file, as compiled into the binary.
struct EmbeddedMigration: Sendable {
    let name: String
    let sql: String

    init(name: String, sql: String) {
        self.name = name
        self.sql = sql
    }

    /// The number before the first underscore: "0003_upbit" is version 3.
    var version: Int {
        Int(name.prefix(while: { $0.isNumber })) ?? 0
    }

    var checksum: String { FNV1a.hash(sql).hex }
}

/// Applies migrations in order, each in its own transaction, and records them in
/// `schema_migrations` (name, checksum, time) and in `PRAGMA user_version`, which
/// readers check at start-up for the price of one page read.
struct Migrator: Sendable {
    let migrations: [EmbeddedMigration]

    static let embedded = Migrator(migrations: embeddedMigrations)
    /// `embedded.latestVersion`, known without building `embedded` (the embedder writes it).
    static let embeddedLatest = embeddedLatestVersion

    init(migrations: [EmbeddedMigration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    var latestVersion: Int { migrations.last?.version ?? 0 }

    static func appliedVersion(of database: Database) throws(DatabaseError) -> Int {
        try database.scalarInt("PRAGMA user_version") ?? 0
    }

    /// The highest version in schema_migrations, or nil when there is no such table or row.
    func newestRecorded(in database: Database) throws(DatabaseError) -> Int? {
        guard try database.scalarInt(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") == 1
        else { return nil }
        return try database.scalarInt("SELECT max(version) FROM schema_migrations")
    }

    /// Migrations whose text differs from what was applied, by name.
    func changedMigrations(in database: Database) throws(DatabaseError) -> [String] {
        guard try database.scalarInt(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") == 1
        else { return [] }
        let applied = try database.prepare("SELECT version, checksum FROM schema_migrations")
        var changed: [String] = []
        while try applied.step() {
            let version = applied.int(0)
            if let migration = migrations.first(where: { $0.version == version }),
               migration.checksum != applied.string(1) {
                changed.append(migration.name)
            }
        }
        return changed
    }

    /// Brings the store up to `latestVersion`. Refuses a store that is newer than
    /// this binary, or whose applied migrations were edited since.
    func migrate(_ database: Database, now: Int = UnixTime.now()) throws(StoreError) {
        let current = try database.storeOperation { () throws(DatabaseError) in try Self.appliedVersion(of: database) }
        if current > latestVersion {
            throw StoreError.newerSchema(path: database.path, found: current, supported: latestVersion)
        }
        // A row from a newer binary (user_version lowered by hand, or an odd restore) counts too.
        if let newest = try database.storeOperation({ () throws(DatabaseError) in try newestRecorded(in: database) }),
           newest > latestVersion {
            throw StoreError.newerSchema(path: database.path, found: newest, supported: latestVersion)
        }
        let changed = try database.storeOperation { () throws(DatabaseError) in try changedMigrations(in: database) }
        if !changed.isEmpty {
            throw StoreError.migrationChanged(path: database.path, names: changed)
        }
        let pending = migrations.filter { $0.version > current }
        try database.storeOperation { () throws(DatabaseError) in
            try database.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY, name TEXT NOT NULL,
                    checksum TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT
                """)
            // As GRDB runs migrations: foreign keys off around them (a table rebuild would
            // otherwise cascade-delete what refers to it — 0005's rebuild applied to `sources`
            // would take every quote), and PRAGMA foreign_key_check before each commit, so a
            // migration that leaves a dangling reference fails instead. The pragma cannot change
            // inside a transaction, hence around the loop.
            if !pending.isEmpty { try database.execute("PRAGMA foreign_keys = OFF") }
        }
        guard !pending.isEmpty else { return }
        defer { try? database.execute("PRAGMA foreign_keys = ON") }
        for migration in pending {
            try apply(migration, to: database, now: now)
        }
    }

    /// One migration in its own transaction, recorded with it; refused when it fails or leaves a
    /// row pointing at a missing one.
    private func apply(_ migration: EmbeddedMigration, to database: Database, now: Int) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            // Re-read inside the write lock: another process may have migrated meanwhile.
            let applied = try database.storeOperation { () throws(DatabaseError) in try Self.appliedVersion(of: database) }
            guard applied < migration.version else { return }
            do throws(DatabaseError) {
                try database.execute(migration.sql)
            } catch {
                throw StoreError.migrationFailed(name: migration.name, underlying: error)
            }
            let dangling = try database.storeOperation { () throws(DatabaseError) -> (table: String, parent: String)? in
                try database.execute(
                    "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?1, ?2, ?3, ?4)",
                    [.integer(migration.version), .text(migration.name), .text(migration.checksum), .integer(now)])
                try database.execute("PRAGMA user_version = \(migration.version)")
                let violations = try database.prepare("PRAGMA foreign_key_check")
                return try violations.step() ? (violations.string(0), violations.string(2)) : nil
            }
            if let dangling {
                throw StoreError.migrationFailed(
                    name: migration.name,
                    underlying: DatabaseError(extendedCode: DatabaseError.ExtendedCode.constraintForeignKey,
                                              message: tr("leaves rows in \(dangling.table) pointing at missing rows in \(dangling.parent)")))
            }
        }
    }
}
