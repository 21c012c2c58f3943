import QuoteText
import CSQLite
import QuoteBase

/// One SQLite connection. Used from one thread at a time, hence not Sendable.
final class Database {
    enum Mode: Sendable {
        /// Never writes; used by every command that only reads.
        case readOnly
        /// Reads and writes, creating the file if it is missing.
        case readWriteCreate
        /// Reads and writes an existing file.
        case readWrite
        /// Looks without touching: SQLite's `immutable` open takes no lock and creates no -wal
        /// or -shm file (what a WAL holds is not seen). For deciding whose file it is.
        case inspect
    }

    let handle: OpaquePointer
    /// The flag SQLite's progress handler polls while one is set (`interrupt(by:)`).
    private(set) var interruptFlag: CancelFlag?
    let path: String
    private let busyTimeoutMilliseconds: Int32
    let mode: Mode

    /// Opens and configures a connection: extended result codes, foreign keys on,
    /// a busy timeout, and (for writers) WAL with synchronous=NORMAL.
    init(path: String, mode: Mode, busyTimeoutMilliseconds: Int32 = 10_000) throws(DatabaseError) {
        _ = Self.configureLibrary
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .inspect: flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        }
        var connection: OpaquePointer?
        let name = mode == .inspect ? Self.uri(path, query: "immutable=1") : path
        let code = sqlite3_open_v2(name, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(connection)
            throw DatabaseError(extendedCode: code, message: message)
        }
        self.handle = connection
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.mode = mode
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        if mode != .readOnly && mode != .inspect {
            // Readers change nothing: only writers pay for parsing this.
            try execute("PRAGMA foreign_keys = ON")
            // Keep the -wal and -shm files when the last writer closes: a reader that may
            // not create files in the store's folder (a member of group quoted reading
            // /var/lib/quoted) can then still open the WAL store read-only.
            var persist: Int32 = 1
            sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
            try execute("PRAGMA journal_size_limit = 4194304")
            // A new store's pages are 16 KiB (SQLite's default is 4): a big load writes its rows
            // into the WAL, and every page read from there first searches the WAL's index, a
            // search that grows with the WAL; a quarter of the pages to write and look up makes a
            // big first sync a quarter faster (docs/benchmarks.md). An existing store keeps its
            // page size (WAL mode cannot change it).
            try execute("PRAGMA page_size = 16384")
            try enableWAL()
            try execute("PRAGMA synchronous = NORMAL")
        }
    }

    /// The first `count` bytes of the main database file (fewer when it is shorter), read through
    /// this connection's own descriptor; nil when they cannot be read.
    func filePrefix(count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var read: Int32 = 0
        guard quoted_sqlite3_connection_prefix(handle, &bytes, Int32(count), &read) == SQLITE_OK else { return nil }
        return Array(bytes[..<Int(read)])
    }

    /// False once the connection is left to the process's exit (`leaveToTheExit`).
    private var closesWhenReleased = true

    deinit {
        if closesWhenReleased { sqlite3_close_v2(handle) }
    }

    /// A reader's connection is not closed when released: the process ends right after, and its
    /// exit releases the descriptors, the POSIX locks and the -shm mapping as sqlite3_close would
    /// (a read-only connection has no checkpoint to make), without the close's own work — its
    /// statements finalized, its page cache and schema freed. A writer's is always closed: its
    /// close checkpoints the WAL.
    func leaveToTheExit() {
        if mode == .readOnly || mode == .inspect { closesWhenReleased = false }
    }

    /// `file:PATH?QUERY`, the path percent-encoded (a `?` or `#` in a file name is not a query).
    static func uri(_ path: String, query: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                uri.unicodeScalars.append("%")
                uri.unicodeScalars.append(digits[Int(byte >> 4)])
                uri.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return uri + "?" + query
    }

    /// Process-wide SQLite settings, applied once before the first connection.
    static let configureLibrary: Void = {
        _ = quoted_sqlite3_disable_memstatus()
    }()

    /// The page cache of this connection, in KiB (SQLite's default is 2 MiB).
    func setCacheSize(kibibytes: Int) throws(DatabaseError) {
        try execute("PRAGMA cache_size = -\(kibibytes)")
    }

    /// Switches to WAL and checks that SQLite really did: it answers with the mode
    /// it is in, which stays "delete" on file systems that cannot share memory.
    private func enableWAL() throws(DatabaseError) {
        let answer = try prepare("PRAGMA journal_mode = WAL")
        let mode = try answer.step() ? answer.string(0).lowercased() : ""
        guard mode == "wal" else {
            throw DatabaseError(extendedCode: SQLITE_ERROR,
                                // English on purpose: SQLite's answer, quoted as it is
                                message: "journal_mode answered '\(mode)' instead of 'wal'",
                                sql: answer.sql)
        }
    }

    /// Runs one or more statements that take no parameters.
    func execute(_ sql: String) throws(DatabaseError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw DatabaseError(extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    func prepare(_ sql: String) throws(DatabaseError) -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Executes ONE statement with the given values bound to ?1, ?2, ...
    func execute(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) {
        try prepare(sql).execute(values)
    }

    /// The first column of the first row as an integer, or nil when there is no row or it is NULL.
    func scalarInt(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) -> Int? {
        let statement = try prepare(sql)
        try statement.bind(values)
        return try statement.step() ? statement.optionalInt(0) : nil
    }

    func scalarString(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) -> String? {
        let statement = try prepare(sql)
        try statement.bind(values)
        return try statement.step() ? statement.optionalString(0) : nil
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// From now on, setting `flag` (from a task's cancellation handler, on any thread) stops the
    /// statement running at that moment, until `interrupt(by: nil)`: it fails with
    /// SQLITE_INTERRUPT (`.interrupted`) and a transaction around it rolls back. SQLite's progress
    /// handler polls the flag every 100,000 virtual-machine steps (well under a millisecond
    /// between polls), so no C pointer to the connection leaves this thread, as sqlite3_interrupt
    /// from another thread would need. Every 1,000 steps is too often: it slows a big first sync
    /// by a few percent (docs/benchmarks.md). The connection keeps the flag alive while it is set.
    func interrupt(by flag: CancelFlag?) {
        interruptFlag = flag
        guard let flag else {
            sqlite3_progress_handler(handle, 0, nil, nil)
            return
        }
        sqlite3_progress_handler(handle, 100_000, { context in
            Unmanaged<CancelFlag>.fromOpaque(context!).takeUnretainedValue().isSet ? 1 : 0
        }, Unmanaged.passUnretained(flag).toOpaque())
    }

    /// Copies the WAL into the database file and truncates it to 0 bytes, waiting up to
    /// `patience` for readers of the old WAL to finish (new readers do not block it: once
    /// the WAL is copied back they read the file). Without this, every reader that opens
    /// the store after a big write recovers the whole WAL again, thirty times the cost of a
    /// `quotectl random` (docs/benchmarks.md). False when readers outlasted the wait;
    /// journal_size_limit then still trims the WAL at the next checkpoint.
    @discardableResult
    func checkpointAndTruncate(patienceMilliseconds: Int32 = 5_000) -> Bool {
        guard mode != .readOnly && mode != .inspect else { return false }
        sqlite3_busy_timeout(handle, patienceMilliseconds)
        defer { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
        var logFrames: Int32 = 0, copiedFrames: Int32 = 0
        return sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &copiedFrames) == SQLITE_OK
    }

    /// SQLite's `PRAGMA quick_check`: nil when the file is sound, else its first complaint.
    /// It reads every page (docs/benchmarks.md), so it is run before writing, not reading.
    func quickCheck() throws(DatabaseError) -> String? {
        // English on purpose: SQLite's answer, quoted as it is
        let answer = try scalarString("PRAGMA quick_check(1)") ?? "no answer"
        return answer == "ok" ? nil : answer
    }

    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in a transaction: BEGIN IMMEDIATE (so a writer waits for the
    /// write lock up front instead of failing half-way), COMMIT on return, ROLLBACK
    /// on a thrown error. The body's error is the one rethrown, never a rollback's. The body runs
    /// store operations, so it fails with a `StoreError` only, as BEGIN and COMMIT do here.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try begin()
        let result: T
        do {
            result = try body()
        } catch {
            rollback()
            throw error
        }
        try commit()
        return result
    }

    /// Runs `body`, a store operation made of statements, and names this store in what it throws:
    /// how each query turns SQLite's failure into the store's (`StoreError.init(_:path:)`).
    func storeOperation<T>(_ body: () throws(DatabaseError) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw StoreError(error, path: path)
        }
    }

    /// BEGIN IMMEDIATE: the write lock is taken now (waiting up to the busy timeout), not half-way.
    func begin() throws(StoreError) {
        try storeOperation { () throws(DatabaseError) in try execute("BEGIN IMMEDIATE") }
    }

    /// COMMIT of the transaction open; ROLLBACK if it fails (a full disk, say), so that nothing
    /// of it stays half-applied.
    func commit() throws(StoreError) {
        try storeOperation { () throws(DatabaseError) in
            do throws(DatabaseError) {
                try execute("COMMIT")
            } catch {
                rollback()
                throw error
            }
        }
    }

    /// Abandons the open transaction, if there is one.
    func rollback() {
        if isInTransaction { try? execute("ROLLBACK") }
    }

    /// The rowid of the last row this connection inserted.
    var lastInsertRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }

    /// Runs `body` with `name(x)` defined as an SQL function answering `predicate(x)` (1 or 0)
    /// on this connection only, and only in statements `body` runs directly (SQLITE_DIRECTONLY:
    /// no trigger or view a store file holds can call it).
    func withPredicate<T>(_ name: String, _ predicate: @escaping (Int) -> Bool,
                                 _ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
        let box = PredicateBox(predicate)
        let code = sqlite3_create_function_v2(handle, name, 1, SQLITE_UTF8 | SQLITE_DIRECTONLY | SQLITE_DETERMINISTIC,
                                              Unmanaged.passUnretained(box).toOpaque(), { context, _, arguments in
            let box = Unmanaged<PredicateBox>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
            let value = Int(sqlite3_value_int64(arguments![0]))
            sqlite3_result_int(context, box.predicate(value) ? 1 : 0)
        }, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code: code, sql: nil) }
        defer {
            sqlite3_create_function_v2(handle, name, 1, SQLITE_UTF8, nil, nil, nil, nil, nil)
            withExtendedLifetime(box) {}
        }
        return try body()
    }

    /// Whether `quoted_fold` is defined on this connection yet.
    private var foldingDefined = false

    /// Defines `quoted_fold(text)`, the text folded by `CaseFolding`, on this connection (once; only
    /// statements that match names case-insensitively need it, so an unfiltered pick never pays),
    /// for statements this program runs directly (SQLITE_DIRECTONLY).
    func defineCaseFolding() throws(DatabaseError) {
        guard !foldingDefined else { return }
        let code = sqlite3_create_function_v2(handle, "quoted_fold", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY | SQLITE_DETERMINISTIC,
                                              nil, { context, _, arguments in
            let value = arguments![0]
            guard sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else {
                sqlite3_result_null(context)
                return
            }
            let count = Int(sqlite3_value_bytes(value))
            let folded = CaseFolding.fold(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            var utf8 = folded.utf8CString
            utf8.withUnsafeMutableBufferPointer { buffer in
                sqlite3_result_text(context, buffer.baseAddress, Int32(buffer.count - 1), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
        }, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code: code, sql: nil) }
        foldingDefined = true
    }

    func error(code: Int32, sql: String?) -> DatabaseError {
        DatabaseError(extendedCode: sqlite3_extended_errcode(handle),
                      message: String(cString: sqlite3_errmsg(handle)),
                      sql: sql)
    }
}

/// What `withPredicate` hands SQLite as the function's user data.
private final class PredicateBox {
    let predicate: (Int) -> Bool
    init(_ predicate: @escaping (Int) -> Bool) { self.predicate = predicate }
}

@available(*, unavailable)
extension Database: Sendable {}
