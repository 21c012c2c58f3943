import CSQLite
import Glibc
import QuoteBase
import QuoteSystem

/// The quoted store: an SQLite file with the embedded schema, opened for reading
/// (every query command) or writing (import, sync). Opening creates a missing
/// store, with the starter set, when its folder can be created or written — unless
/// the caller must find one there (`creating: false`).
public final class Store {
    private(set) var database: Database
    public var path: String { database.path }
    /// This process's turn to write (`WriterTurn`), held while a writer has the store open
    /// (`Turn.whileOpen`).
    private var turn: ProcessLock?
    /// When a writer takes its turn: for as long as the store is open, or per write transaction.
    private let turnTaking: Turn
    /// What a wait for another process's turn says, for each turn taken per transaction.
    private let waiting: WriterTurn.Note?

    public enum Access: Sendable {
        case read
        case write
    }

    /// When a writer of the store takes its turn (`WriterTurn`). Creating the store and migrating
    /// it take the turn while they do, whichever is chosen.
    public enum Turn: Sendable {
        /// At the opening, held until the store is closed: a writer whose every step is local and
        /// short (an import, a forget, the daemon's own records).
        case whileOpen
        /// Around each write transaction only, BEGIN IMMEDIATE to COMMIT or ROLLBACK (`write`,
        /// `SourceTransaction.commit`), and a checkpoint: a sync, whose network time never holds it.
        case perTransaction
    }

    /// What an SQLite file's header starts with.
    // English on purpose: the SQLite file header's magic
    static let sqliteMagic = Array("SQLite format 3\0".utf8)

    /// What a header (its first 100 bytes) says: the application_id, and whether the file is in
    /// WAL mode (its read and write versions, bytes 18 and 19; 20 bytes are enough for this).
    static func applicationID(ofHeader header: [UInt8]) -> Int { header[68..<72].reduce(0) { $0 << 8 | Int($1) } }
    static func isWAL(header: [UInt8]) -> Bool { header[18] == 2 || header[19] == 2 }
    /// quoted's mark in the SQLite header (PRAGMA application_id, set by migration 0006): "quot".
    public static let applicationID = 0x71756f74
    /// 10 s: a big sync's commit takes a few seconds; a reader or a second writer waits it out.
    public static let defaultBusyTimeout: Int32 = 10_000

    /// `busyTimeoutMilliseconds`: how long a statement waits for another process's write lock.
    /// `creating` false: a store must be there (`--no-create`, `quotectl check`, a path the user
    /// named for reading). A missing file is then `missing`, and a file that holds no store yet
    /// (0 bytes, or SQLite with no schema) `noStore`, left as it was with nothing made beside it.
    /// `turn`: when a writer takes its turn (`Turn`).
    public init(path: String, access: Access, creating: Bool = true, now: Int = UnixTime.now(),
                busyTimeoutMilliseconds: Int32 = Store.defaultBusyTimeout, turn turnTaking: Turn = .whileOpen,
                sayingWaiting waiting: WriterTurn.Note? = nil) throws(StoreError) {
        let opened: Opened
        do {
            opened = try Self.opened(path, access: access, creating: creating, now: now, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                                     turnWhenCurrent: turnTaking == .whileOpen, waiting: waiting)
        } catch let error where error.judgesTheFile && WriterTurn.awaitOtherWriter(path, waiting: waiting) {
            // Another quoted was writing it (creating it, migrating it: between its transactions a
            // store is briefly neither empty nor whole); what was seen is no verdict. Look again,
            // once that turn is over.
            opened = try Self.opened(path, access: access, creating: creating, now: now, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                                     turnWhenCurrent: turnTaking == .whileOpen, waiting: waiting)
        }
        database = opened.database
        // Per transaction, the turn that creating or migrating took is given back now.
        turn = turnTaking == .whileOpen ? opened.turn : nil
        self.turnTaking = turnTaking
        self.waiting = waiting
    }

    /// This process's turn for one write transaction (or checkpoint) of a store that takes it per
    /// transaction, held by the caller until that ends; nil when the store holds it for its life.
    /// `patience`: how long to wait for another process's turn (the configured one by default).
    func turnForOneWrite(patience: Duration? = nil) throws(StoreError) -> ProcessLock? {
        guard turnTaking == .perTransaction else { return nil }
        return try WriterTurn.take(path, patience: patience, waiting: patience == .zero ? nil : waiting)
    }

    /// An open connection and, for a writer, its turn.
    private struct Opened {
        var database: Database
        var turn: ProcessLock?
    }

    /// `turnWhenCurrent`: a writer takes its turn even when the schema is current (one that keeps
    /// it while open); one that takes it per transaction then looks without it, so that opening
    /// never waits behind another process's long write.
    private static func opened(_ path: String, access: Access, creating: Bool, now: Int,
                               busyTimeoutMilliseconds: Int32, turnWhenCurrent: Bool,
                               waiting: WriterTurn.Note?) throws(StoreError) -> Opened {
        var turn: ProcessLock?
        if access == .read, let reader = readerOfAStoreInUse(path, busyTimeoutMilliseconds: busyTimeoutMilliseconds) {
            guard try checkSchema(reader, access: access, now: now, turn: &turn, turnWhenCurrent: turnWhenCurrent, waiting: waiting) else {
                return Opened(database: reader, turn: turn)
            }
            // Upgraded through a connection of its own (see below): read again.
            return Opened(database: try connection(path, mode: try readingMode(path), busyTimeoutMilliseconds: busyTimeoutMilliseconds), turn: turn)
        }
        var look = try needsCreating(path, access: access)
        if look.needed {
            // Decided on the header and an immutable look alone: nothing was opened that writes.
            guard creating else {
                throw Path.exists(path) ? StoreError.noStore(path: path) : StoreError.missing(path: path, reason: tr("no such file"))
            }
            // Another process may be creating it this very moment: take the turn, then look again.
            let folder = Path.parent(of: path)
            if let problem = Path.makeDirectories(folder) { throw StoreError.missing(path: path, reason: problem) }
            if let problem = Path.writableProblem(folder) {
                throw Path.exists(path) ? StoreError.readOnly(path: path, reason: problem) : StoreError.cannotCreate(path: path, reason: problem)
            }
            turn = try WriterTurn.take(path, waiting: waiting)
            if try needsCreating(path, access: access).needed { try create(path: path, now: now) }
        }
        let mode: Database.Mode = access == .write ? .readWrite : try readingMode(path)
        // Closed before another connection opens, as before it was kept, when it is not the one.
        if mode != .inspect { look.inspector = nil }
        // The look's own immutable connection when this one would be the same: its schema is
        // read already (a second open would read and parse it again, a fifth of a draw's time).
        var database: Database
        if mode == .inspect, let inspector = look.inspector {
            database = inspector
        } else {
            database = try connection(path, mode: mode, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
        var upgraded: Bool
        do {
            upgraded = try checkSchema(database, access: access, now: now, turn: &turn, turnWhenCurrent: turnWhenCurrent, waiting: waiting)
        } catch .notADatabase(_) where mode == .inspect && Path.exists(path + "-shm"),
                .damaged(_, _) where mode == .inspect && Path.exists(path + "-shm") {
            // An immutable read raced the first writer of a store that had no side files (it made
            // them meanwhile): what SQLite saw is no verdict. Read again, under SQLite's locks.
            database = try connection(path, mode: .readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            upgraded = try checkSchema(database, access: access, now: now, turn: &turn, turnWhenCurrent: turnWhenCurrent, waiting: waiting)
        }
        if upgraded {
            // The reader read the schema before its upgrade, and an immutable connection never
            // sees it change: a filtered draw would miss the new columns and tables.
            database = try connection(path, mode: try readingMode(path), busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
        return Opened(database: database, turn: turn)
    }

    /// For a process that ends once this store is released (quotectl's own run): a reader's
    /// connection is left to the exit instead of closed (`Database.leaveToTheExit`); a writer's
    /// is closed as always.
    public func leaveToTheExit() {
        database.leaveToTheExit()
    }

    /// From now on, this connection sees what other processes commit (a follower's `data_version`):
    /// a store that had no WAL in use was opened for an immutable look (`Database.Mode.inspect`),
    /// which never sees another commit, and is reopened under SQLite's locks.
    ///
    /// False when that cannot be: the system store between syncs has no -shm, and a user in group
    /// quoted may read its folder but not create one there, so SQLite cannot share the daemon's
    /// locks. The connection stays an immutable look, which `lookAgain()` renews.
    @discardableResult
    public func seeOtherWriters() throws(StoreError) -> Bool {
        guard database.mode == .inspect else { return true }
        guard let shared = try? Self.connection(path, mode: .readOnly, busyTimeoutMilliseconds: Self.defaultBusyTimeout),
              (try? StoreVersion(database: shared).current()) != nil else { return false }
        database = shared
        return true
    }

    /// A new immutable look at the store, for a reader that cannot share its writers' locks: what
    /// the last writer left in the file (a writer's last connection copies its WAL back on closing).
    public func lookAgain() throws(StoreError) {
        database = try Self.connection(path, mode: .inspect, busyTimeoutMilliseconds: Self.defaultBusyTimeout)
    }

    private static func connection(_ path: String, mode: Database.Mode, busyTimeoutMilliseconds: Int32) throws(StoreError) -> Database {
        do {
            return try Database(path: path, mode: mode, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch {
            throw openError(error, path: path)
        }
    }

    /// Whether `path` is a new store, and the immutable connection the look at it opened (`look`).
    private static func needsCreating(_ path: String, access: Access) throws(StoreError) -> (needed: Bool, inspector: Database?) {
        // A 0-byte file or an SQLite file with no schema (touch, sqlite3 x.db ""): a new store.
        guard Path.exists(path) else { return (true, nil) }
        let look = try look(at: path, access: access)
        return (look.identity == .empty, look.inspector)
    }

    /// Verifies this is our store and at our schema version — refusing a newer one by
    /// `user_version` and, before anything would change it, by a `schema_migrations` row too,
    /// before anything is created beside it — then takes a writer's turn and migrates when it is
    /// older (reopening for writing if needed).
    /// True when a reader's store was upgraded through a connection of its own.
    private static func checkSchema(_ database: Database, access: Access, now: Int, turn: inout ProcessLock?,
                                    turnWhenCurrent: Bool, waiting: WriterTurn.Note?) throws(StoreError) -> Bool {
        let path = database.path
        let latest = Migrator.embeddedLatest
        let (version, tables) = try whileOpening(path) { () throws(DatabaseError) in
            let version = try Migrator.appliedVersion(of: database)
            return (version, version == 0 ? try database.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0 : 0)
        }
        if version == 0, tables > 0 { throw StoreError.foreignDatabase(path: database.path) }
        if version > latest { throw StoreError.newerSchema(path: database.path, found: version, supported: latest) }
        // Whatever would change the store — a writer, a reader's upgrade — also refuses a newer
        // migration row and a missing migrations table (each migration sets user_version with its
        // row: a newer row alone is a hand's or an odd restore's). A reader of a current store
        // trusts user_version and spares every draw the read of the table's page; `look` reads
        // the table when the header cannot say the store is ours.
        if version > 0, access == .write || version < latest { try refuseNewer(database, version: version) }
        guard version < latest || access == .write else { return false }
        // A current schema is only looked at (the migrator's check of edited migrations reads).
        if turn == nil, version < latest || turnWhenCurrent { turn = try WriterTurn.take(path, waiting: waiting) }
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
        if access != .write {
            writer.checkpointAndTruncate()
            turn = nil
        }
        return access != .write
    }

    /// Throws `newerSchema` when `user_version` (`version`) or a `schema_migrations` row is newer
    /// than this binary's newest migration, and `foreignDatabase` when there is no such table (a
    /// schema version without the table our migrations record themselves in is not ours). One
    /// statement asks both.
    private static func refuseNewer(_ database: Database, version: Int) throws(StoreError) {
        let latest = Migrator.embeddedLatest
        let newest: Int?
        do throws(DatabaseError) {
            newest = try database.scalarInt("SELECT max(version) FROM schema_migrations")
        } catch where error.resultCode == .sqlError {
            // The statement is fixed and sound: what the schema lacks is a migrations table of ours.
            throw StoreError.foreignDatabase(path: database.path)
        } catch {
            throw openError(error, path: database.path)
        }
        if let newest, newest > latest { throw StoreError.newerSchema(path: database.path, found: newest, supported: latest) }
        if version > latest { throw StoreError.newerSchema(path: database.path, found: version, supported: latest) }
    }

    /// A reader's way in to a WAL store of ours that has both its side files (every draw's case):
    /// the read-only connection is opened first — with -wal and -shm there it creates nothing, and
    /// it reads nothing until asked — and the header is read through its own descriptor, so the
    /// file is opened once and no descriptor of it is closed. The header must say what `look`
    /// asks of such a store (SQLite's magic, our application_id, WAL); then `checkSchema` reads
    /// the schema, as after `look`. Nil for anything else (a side file missing, not a regular
    /// file, another header): the connection is released having read the header alone, and
    /// `look` decides.
    static func readerOfAStoreInUse(_ path: String, busyTimeoutMilliseconds: Int32) -> Database? {
        guard Path.exists(path + "-wal"), Path.exists(path + "-shm"), FileReader.regularFileProblem(path) == nil,
              let reader = try? Database(path: path, mode: .readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds),
              let header = reader.filePrefix(count: 100), header.count == 100,
              header.starts(with: sqliteMagic),
              applicationID(ofHeader: header) == applicationID, isWAL(header: header) else { return nil }
        return reader
    }

    /// How a reader opens the store without creating anything beside it. A WAL store's reader
    /// needs its -shm file and creates it when it is missing (with a -wal). With neither, or an
    /// empty -wal, no writer has the store open (one would have made both), so an `immutable`
    /// read is safe and creates nothing; with a -wal left behind it is not, and where the folder
    /// may not be written the message says what to do.
    static func readingMode(_ path: String) throws(StoreError) -> Database.Mode {
        guard !Path.exists(path + "-shm"), let header = try? DatabaseFile.prefix(path, count: 20),
              header.count == 20, isWAL(header: header) else {
            return .readOnly
        }
        if (FileReader.size(path + "-wal") ?? 0) == 0 { return .inspect }
        guard let folderProblem = Path.writableProblem(Path.parent(of: path)) else { return .readOnly }
        throw StoreError.readOnly(path: path, reason: tr("""
            \(folderProblem), and a WAL store's reader must create \(path)-shm there; \
            run a writer (quoted sync --once) as the store's owner once, or make the folder writable
            """))
    }

    enum Identity { case ours, empty }

    /// Decides whose file this is BEFORE any connection that could write or create a file is
    /// opened (a writer switches the journal to WAL at once; even a reader of a WAL file
    /// creates -wal and -shm files when they are missing). Throws for anything that is not a
    /// quoted store, or one a newer quoted made, which is then left exactly as it was, byte for
    /// byte, its folder too.
    ///
    /// The header first (100 bytes, through SQLite's VFS: `DatabaseFile`): SQLite's magic and the
    /// application_id. A store with our mark whose side files exist goes no further (`quotectl
    /// random` pays one small read; the schema is checked on its own connection). Otherwise the
    /// schema is read by a connection that creates nothing: a plain read-only one when the side
    /// files are there (a writer at work is then seen consistently, under SQLite's locks), an
    /// `immutable` one when they are not (no writer can be at work: it would have made them).
    /// quoted's mark alone is not enough — `schema_migrations` and a schema version must be there too.
    static func identify(_ path: String, access: Access) throws(StoreError) -> Identity {
        try look(at: path, access: access).identity
    }

    /// `identify`, with the connection it opened for an immutable look (`Database.Mode.inspect`)
    /// at a store it found ours, for a reader to go on with.
    static func look(at path: String, access: Access) throws(StoreError) -> (identity: Identity, inspector: Database?) {
        let header: [UInt8]
        do {
            header = try DatabaseFile.prefix(path, count: 100)
        } catch {
            throw StoreError.missing(path: path, reason: error.reason)
        }
        if header.isEmpty { return (.empty, nil) }
        guard header.count == 100, header.starts(with: sqliteMagic) else {
            throw StoreError.notADatabase(path: path)
        }
        let applicationID = Self.applicationID(ofHeader: header)
        let ours = applicationID == Self.applicationID
        if !ours && applicationID != 0 { throw StoreError.foreignDatabase(path: path) }
        let walMode = Self.isWAL(header: header)
        let sideFiles = Path.exists(path + "-wal") && Path.exists(path + "-shm")
        // A store of ours already in WAL with its side files: opening it, even to write, changes no
        // byte before `checkSchema` has read its schema (which refuses a foreign or newer one).
        if ours && (walMode ? sideFiles : access == .read) { return (.ours, nil) }
        let (inspector, tables) = try whileOpening(path) { () throws(DatabaseError) in
            let inspector = try Database(path: path, mode: sideFiles ? .readOnly : .inspect)
            return (inspector, try inspector.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0)
        }
        guard tables == 0 else { return (try schemaIsOurs(inspector, path: path), inspector.mode == .inspect ? inspector : nil) }
        // Without our mark this is a new file (touch, sqlite3 x.db "") — or a store being
        // created right now whose schema is still in its WAL: a plain read then sees it.
        guard !ours else { throw StoreError.foreignDatabase(path: path) }
        guard !sideFiles, FileReader.size(path + "-wal").map({ $0 > 0 }) ?? false else { return (.empty, nil) }
        let (reader, written) = try whileOpening(path) { () throws(DatabaseError) in
            let reader = try Database(path: path, mode: .readOnly)
            return (reader, try reader.scalarInt("SELECT count(*) FROM sqlite_master"))
        }
        return (written == 0 ? .empty : try schemaIsOurs(reader, path: path), nil)
    }

    /// `schema_migrations` and a schema version: the marks of a store our migrations made; and
    /// neither from a newer quoted.
    private static func schemaIsOurs(_ database: Database, path: String) throws(StoreError) -> Identity {
        let version = try whileOpening(path) { () throws(DatabaseError) in try Migrator.appliedVersion(of: database) }
        guard version > 0 else { throw StoreError.foreignDatabase(path: path) }
        try refuseNewer(database, version: version)
        return .ours
    }

    /// Why the file is shorter than its header says (a copy cut short, a full disk), or nil —
    /// asked only once SQLite has called the file damaged: read beside a live checkpoint, which
    /// writes page 1 before the pages it names, the header runs ahead of the file for a moment.
    /// The header's page count is trusted only when its "version-valid-for" number matches
    /// the change counter, as SQLite itself does.
    static func truncation(_ header: [UInt8], path: String) -> String? {
        guard header.count >= 100 else { return nil }
        func number(_ offset: Int) -> Int { header[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let pages = number(28)
        guard number(92) == number(24), pages > 0, pageSize >= 512,
              let size = FileReader.size(path) else { return nil }
        let expected = pages.multipliedReportingOverflow(by: pageSize)
        guard !expected.overflow, size < expected.partialValue else { return nil }
        return tr("truncated: \(size) of \(expected.partialValue) bytes")
    }

    /// Creates the file (and its folder), applies the schema and loads the starter set.
    private static func create(path: String, now: Int) throws(StoreError) {
        let folder = Path.parent(of: path)
        if let problem = Path.makeDirectories(folder) {
            throw StoreError.missing(path: path, reason: problem)
        }
        let database = try whileOpening(path) { () throws(DatabaseError) in try Database(path: path, mode: .readWriteCreate) }
        do {
            try Migrator.embedded.migrate(database, now: now)
            try StarterSet.load(into: database, now: now)
        } catch .database(_, let error) {
            // Still a step of opening it: a file that cannot be opened or written is said so.
            throw openError(error, path: path)
        }
    }

    /// `body`, a step of opening the store, with SQLite's failure said as one of opening it
    /// (`openError`: a store cut short, or one this user cannot write, is not just an I/O error).
    private static func whileOpening<T>(_ path: String, _ body: () throws(DatabaseError) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw openError(error, path: path)
        }
    }

    private static func openError(_ error: DatabaseError, path: String) -> StoreError {
        if error.resultCode == .corrupt, let header = try? DatabaseFile.prefix(path, count: 100),
           let problem = truncation(header, path: path) {
            return .damaged(path: path, reason: problem)
        }
        if error.resultCode == .cannotOpen || error.resultCode == .readOnly {
            let reason = errno == EACCES ? tr("permission denied") : error.message
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
    /// `writerPatience`: how long to wait for another process's turn to write (`WriterTurn`), when
    /// the caller's and not the program's (the daemon asks without waiting, and asks again later).
    public static func reconcileCustomLists(_ configured: [String], storePath: String,
                                            busyTimeoutMilliseconds: Int32 = defaultBusyTimeout,
                                            writerPatience: Duration? = nil) throws(StoreError) {
        // This process's turn, taken first: opening the store for writing shares it.
        var turn: ProcessLock?
        if let writerPatience { turn = try WriterTurn.take(storePath, patience: writerPatience) }
        let store = try Store(path: storePath, access: .write, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try store.write { (transaction) throws(StoreError) in try transaction.quotes.markConfiguredLists(configured) }
        withExtendedLifetime(turn) {}
    }
}

@available(*, unavailable)
extension Store: Sendable {}
