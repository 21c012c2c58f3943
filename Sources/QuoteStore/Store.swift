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
        } else if try Self.identify(path, access: access) == .empty {
            // A 0-byte file or an SQLite file with no schema (touch, sqlite3 x.db ""): a new store.
            try Self.create(path: path, now: now)
        }
        let database: Database
        let mode: Database.Mode = access == .write ? .readWrite : try Self.readingMode(path)
        do {
            database = try Database(path: path, mode: mode, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
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
            // A schema version without the table our migrations record themselves in is not ours either.
            if version > 0, try database.scalarInt(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") != 1 {
                throw StoreError.foreignDatabase(path: database.path)
            }
            return version
        }
        let latest = Migrator.embeddedLatest
        if version > latest {
            throw StoreError.newerSchema(path: path, found: version, supported: latest)
        }
        guard version < latest || access == .write else { return }
        let migrator = Migrator.embedded
        // Writers always run the migrator: it also notices edited migrations.
        let writer: Database
        do {
            writer = access == .write ? database : try Database(path: path, mode: .readWrite)
        } catch {
            throw StoreError.needsUpgrade(path: path, found: version, supported: migrator.latestVersion)
        }
        try migrator.migrate(writer, now: now)
        // Readers that open the store next find an empty WAL (and need not recover it).
        if access != .write { writer.checkpointAndTruncate() }
    }

    /// How a reader opens the store. A WAL store's reader needs its -shm file and, when that is
    /// missing, creates it — impossible in a folder this user may not write. Then, with no -wal
    /// file either, no writer has the store open (one would have made both), so an `immutable`
    /// read is safe; with a -wal left behind it is not, and the message says what to do.
    static func readingMode(_ path: String) throws(StoreError) -> Database.Mode {
        guard !Path.exists(path + "-shm"), let folderProblem = Path.writableProblem(Path.parent(of: path)) else { return .readOnly }
        guard let header = try? FileReader.readPrefix(path, count: 20), header.count == 20, header[18] == 2 || header[19] == 2 else {
            return .readOnly
        }
        if (FileReader.size(path + "-wal") ?? 0) == 0 { return .inspect }
        throw StoreError.readOnly(path: path, reason: "\(folderProblem), and a WAL store's reader must create \(path)-shm there; "
                                  + "run a writer (quoted sync --once) as the store's owner once, or make the folder writable")
    }

    enum Identity { case ours, empty }

    /// Decides whose file this is BEFORE any connection that could write or create a file is
    /// opened (a writer switches the journal to WAL at once; even a reader of a WAL file
    /// creates -wal and -shm files when they are missing). Throws for anything that is not a
    /// quoted store, which is then left exactly as it was, byte for byte, its folder too.
    ///
    /// The header first (100 bytes): SQLite's magic, the application_id, the length the file
    /// should have. A reader of a store with our mark whose side files exist goes no further
    /// (`quotectl random` pays one small read). Otherwise the schema is read with an
    /// `immutable` open, which takes no lock and creates nothing: quoted's mark alone is not
    /// enough — `schema_migrations` and a schema version must be there too.
    static func identify(_ path: String, access: Access) throws(StoreError) -> Identity {
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
        let ours = applicationID == Self.applicationID
        if !ours && applicationID != 0 { throw StoreError.foreignDatabase(path: path) }
        if let problem = truncation(header, path: path) { throw StoreError.damaged(path: path, reason: problem) }
        let walMode = header[18] == 2 || header[19] == 2
        let sideFiles = Path.exists(path + "-wal") && Path.exists(path + "-shm")
        // A store of ours already in WAL with its side files: opening it, even to write, changes no
        // byte before `checkSchema` has read its schema (which refuses a foreign one).
        if ours && (walMode ? sideFiles : access == .read) { return .ours }
        return try StoreError.mapping(path: path, databaseError: { openError($0, path: path) }) {
            let inspector = try Database(path: path, mode: .inspect)
            let tables = try inspector.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0
            if tables == 0 {
                // Without our mark this is a new file (touch, sqlite3 x.db "") — or a store being
                // created right now whose schema is still in its WAL: a plain read then sees it.
                guard !ours else { throw StoreError.foreignDatabase(path: path) }
                guard FileReader.size(path + "-wal").map({ $0 > 0 }) ?? false else { return .empty }
                let reader = try Database(path: path, mode: .readOnly)
                return try reader.scalarInt("SELECT count(*) FROM sqlite_master") == 0 ? .empty : try schemaIsOurs(reader, path: path)
            }
            return try schemaIsOurs(inspector, path: path)
        }
    }

    /// `schema_migrations` and a schema version: the marks of a store our migrations made.
    private static func schemaIsOurs(_ database: Database, path: String) throws -> Identity {
        let migrations = try database.scalarInt(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") ?? 0
        guard migrations == 1, try Migrator.appliedVersion(of: database) > 0 else {
            throw StoreError.foreignDatabase(path: path)
        }
        return .ours
    }

    /// Why the file is shorter than its header says (a copy cut short, a full disk), or nil.
    /// The header's page count is trusted only when its "version-valid-for" number matches
    /// the change counter, as SQLite itself does.
    static func truncation(_ header: [UInt8], path: String) -> String? {
        func number(_ offset: Int) -> Int { header[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let pages = number(28)
        guard number(92) == number(24), pages > 0, pageSize >= 512,
              let size = FileReader.size(path) else { return nil }
        let expected = pages.multipliedReportingOverflow(by: pageSize)
        guard !expected.overflow, size < expected.partialValue else { return nil }
        return "truncated: \(size) of \(expected.partialValue) bytes"
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
        try store.withStoreErrors {
            try store.database.transaction { try QuoteWriter(database: store.database).markConfiguredLists(configured) }
        }
    }

    /// `body`, with any database error turned into a StoreError naming this store.
    public func withStoreErrors<T>(_ body: () throws -> T) throws(StoreError) -> T {
        try StoreError.mapping(path: path, body)
    }
}

@available(*, unavailable)
extension Store: Sendable {}
