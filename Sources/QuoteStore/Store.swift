import CSQLite
import Glibc
import QuoteBase

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

    /// quoted's mark in the SQLite header (PRAGMA application_id, set by migration 0006): "quot".
    public static let applicationID = 0x71756f74
    /// 10 s: a big sync's commit takes a few seconds; a reader or a second writer waits it out.
    public static let defaultBusyTimeout: Int32 = 10_000

    /// `busyTimeoutMilliseconds`: how long a statement waits for another process's write lock.
    public init(path: String, access: Access, now: Int = UnixTime.now(),
                busyTimeoutMilliseconds: Int32 = Store.defaultBusyTimeout) throws(StoreError) {
        if !Path.exists(path) {
            try Self.create(path: path, now: now)
        } else if try Self.identify(path) == .empty {
            // A 0-byte file or an SQLite file with no schema (touch, sqlite3 x.db ""): a new store.
            try Self.create(path: path, now: now)
        }
        let database: Database
        do {
            database = try Database(path: path, mode: access == .read ? .readOnly : .readWrite,
                                    busyTimeoutMilliseconds: busyTimeoutMilliseconds)
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

    enum Identity { case ours, empty }

    /// Decides whose file this is BEFORE any connection that could write is opened (a
    /// writer switches the journal to WAL at once): the header's application_id first,
    /// then, for files without one (stores from before migration 0006, or a header not yet
    /// checkpointed from the WAL), a read-only look at the schema. Throws for anything
    /// that is not a quoted store, which is then left exactly as it was.
    static func identify(_ path: String) throws(StoreError) -> Identity {
        let header: [UInt8]
        do {
            header = try FileReader.readPrefix(path, count: 100)
        } catch {
            throw StoreError.missing(path: path, reason: error.reason)
        }
        if header.isEmpty { return .empty }
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw StoreError.notADatabase(path: path)
        }
        let applicationID = header[68..<72].reduce(0) { $0 << 8 | Int($1) }
        if applicationID == Self.applicationID { return .ours }
        if applicationID != 0 { throw StoreError.foreignDatabase(path: path) }
        return try StoreError.mapping(path: path, databaseError: { openError($0, path: path) }) {
            let reader = try Database(path: path, mode: .readOnly)
            if try reader.scalarInt("PRAGMA application_id") == Self.applicationID { return .ours }
            if try reader.scalarInt("SELECT count(*) FROM sqlite_master") == 0 { return .empty }
            let migrations = try reader.scalarInt(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") ?? 0
            guard migrations == 1, try Migrator.appliedVersion(of: reader) > 0 else {
                throw StoreError.foreignDatabase(path: path)
            }
            return .ours
        }
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
        if error.resultCode == .cannotOpen || error.resultCode == .readOnly {
            let reason = errno == EACCES ? "permission denied" : error.message
            // A store that is there but cannot be written (its folder or file read-only
            // for this user) is not a missing store.
            if Path.exists(path) { return .readOnly(path: path, reason: Path.writableProblem(path) ?? reason) }
            if let problem = Path.writableProblem(Path.parent(of: path)) { return .cannotCreate(path: path, reason: problem) }
            return .missing(path: path, reason: reason)
        }
        return StoreError(error, path: path)
    }

    /// Marks which custom lists the configuration names, in one transaction (a list removed
    /// from the configuration stops syncing; its quotes stay until `quotectl forget`).
    public static func reconcileCustomLists(_ configured: [String], storePath: String,
                                            busyTimeoutMilliseconds: Int32 = defaultBusyTimeout) throws(StoreError) {
        let store = try Store(path: storePath, access: .write, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try store.run {
            try store.database.transaction { try QuoteWriter(database: store.database).markConfiguredLists(configured) }
        }
    }

    /// Runs `body` and turns any database error into a StoreError naming this store.
    public func run<T>(_ body: () throws -> T) throws(StoreError) -> T {
        try StoreError.mapping(path: path, body)
    }
}

@available(*, unavailable)
extension Store: Sendable {}
