import CSQLite
import Glibc

/// The quoted store: an SQLite file with the embedded schema, opened for reading
/// (every query command) or writing (import, sync). Opening creates a missing
/// store, with the starter set, when its folder can be created or written.
public final class Store {
    public let database: Database
    public var path: String { database.path }

    public enum Access: Sendable {
        case read
        case write
    }

    public init(path: String, access: Access, now: Int = UnixTime.now()) throws(StoreError) {
        if !Path.exists(path) {
            try Self.create(path: path, now: now)
        }
        let database: Database
        do {
            database = try Database(path: path, mode: access == .read ? .readOnly : .readWrite)
        } catch {
            throw Self.openError(error, path: path)
        }
        self.database = database
        try checkSchema(access: access, now: now)
    }

    /// Verifies this is our store and at our schema version; migrates when it is
    /// older (reopening for writing if needed) and refuses when it is newer.
    private func checkSchema(access: Access, now: Int) throws(StoreError) {
        let database = self.database
        let version = try StoreError.mapping(path: path) {
            let version = try Migrator.appliedVersion(of: database)
            if version == 0, try database.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0 > 0 {
                throw StoreError.foreignDatabase(path: database.path)
            }
            return version
        }
        let migrator = Migrator.embedded
        if version > migrator.latestVersion {
            throw StoreError.newerSchema(path: path, found: version, supported: migrator.latestVersion)
        }
        guard version < migrator.latestVersion || access == .write else { return }
        // Writers always run the migrator: it also notices edited migrations.
        let writer: Database
        do {
            writer = access == .write ? database : try Database(path: path, mode: .readWrite)
        } catch {
            throw StoreError.needsUpgrade(path: path, found: version, supported: migrator.latestVersion)
        }
        try migrator.migrate(writer, now: now)
    }

    /// Creates the file (and its folder), applies the schema and loads the starter set.
    private static func create(path: String, now: Int) throws(StoreError) {
        let folder = Path.parent(of: path)
        if let problem = Path.makeDirectories(folder) {
            throw StoreError.missing(path: path, reason: problem)
        }
        try StoreError.mapping(path: path, databaseError: { openError($0, path: path) }) {
            let database = try Database(path: path, mode: .readWriteCreate)
            try Migrator.embedded.migrate(database, now: now)
            try StarterSet.load(into: database, now: now)
        }
    }

    private static func openError(_ error: DatabaseError, path: String) -> StoreError {
        if error.code == SQLITE_CANTOPEN || error.code == SQLITE_PERM || error.code == SQLITE_READONLY {
            let reason = errno == EACCES ? "permission denied" : error.message
            return .missing(path: path, reason: reason)
        }
        return StoreError(error, path: path)
    }

    /// Runs `body` and turns any database error into a StoreError naming this store.
    public func run<T>(_ body: () throws -> T) throws(StoreError) -> T {
        try StoreError.mapping(path: path, body)
    }
}

@available(*, unavailable)
extension Store: Sendable {}
