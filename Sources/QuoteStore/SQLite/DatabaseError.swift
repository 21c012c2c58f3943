import CSQLite

/// A failed SQLite call: the extended result code, SQLite's own message and the SQL
/// that failed. Bound values are never included (they may be user data or secrets). Public only
/// as what a `StoreError` carries: only the store makes one.
public struct DatabaseError: Error, CustomStringConvertible, Equatable {
    /// The extended result code (for example 2067, SQLITE_CONSTRAINT_UNIQUE).
    public let extendedCode: Int32
    public let message: String
    public let sql: String?

    init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (SQLITE_BUSY, SQLITE_CONSTRAINT, ...).
    public var code: Int32 { extendedCode & 0xFF }

    /// What kind of failure this is, to match on (`case .busy`), as GRDB's ResultCode does.
    public var resultCode: ResultCode { ResultCode(primary: code) }

    /// SQLite's extended result codes this project writes or matches. sqlite3.h defines them as
    /// macros built with `|` and `<<` (`#define SQLITE_CONSTRAINT_UNIQUE (SQLITE_CONSTRAINT | (8<<8))`),
    /// which Swift does not import: they are spelled out here once, as sqlite3.h has them.
    enum ExtendedCode {
        /// SQLITE_CONSTRAINT_CHECK: a CHECK constraint refused a row.
        static let constraintCheck: Int32 = SQLITE_CONSTRAINT | (1 << 8)
        /// SQLITE_CONSTRAINT_FOREIGNKEY: a row points at a missing row.
        static let constraintForeignKey: Int32 = SQLITE_CONSTRAINT | (3 << 8)
        /// SQLITE_CONSTRAINT_UNIQUE: a UNIQUE index already holds the value.
        static let constraintUnique: Int32 = SQLITE_CONSTRAINT | (8 << 8)
    }

    /// The kinds of failure the project tells apart; the rest are `.other(code)`.
    public enum ResultCode: Equatable, Sendable {
        /// Another connection holds a lock (SQLITE_BUSY, SQLITE_LOCKED): try again.
        case busy
        /// The disk or quota is full (SQLITE_FULL).
        case full
        /// The file or its folder cannot be written (SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN for a writer).
        case readOnly
        /// Not a database, or a damaged one (SQLITE_CORRUPT, SQLITE_NOTADB).
        case corrupt
        /// A CHECK, UNIQUE, FOREIGN KEY or NOT NULL constraint refused a row.
        case constraint
        /// The file could not be opened (SQLITE_CANTOPEN).
        case cannotOpen
        /// The statement does not fit the schema, or is not SQL (SQLITE_ERROR: "no such table",
        /// "no such column", a syntax error).
        case sqlError
        /// Stopped on purpose (Database.interrupt(by:): a shutdown abandoning a sync).
        case interrupted
        case ioError
        case other(Int32)

        init(primary: Int32) {
            switch primary {
            case SQLITE_BUSY, SQLITE_LOCKED: self = .busy
            case SQLITE_FULL: self = .full
            case SQLITE_READONLY, SQLITE_PERM: self = .readOnly
            case SQLITE_CORRUPT, SQLITE_NOTADB: self = .corrupt
            case SQLITE_CONSTRAINT: self = .constraint
            case SQLITE_CANTOPEN: self = .cannotOpen
            case SQLITE_ERROR: self = .sqlError
            case SQLITE_INTERRUPT: self = .interrupted
            case SQLITE_IOERR: self = .ioError
            default: self = .other(primary)
            }
        }
    }

    public var description: String {
        // English on purpose: SQLite's diagnostics, named by its code
        var text = "SQLite error \(extendedCode): \(message)"
        // English on purpose: SQLite's diagnostics, named by its code
        if let sql { text += " (while running: \(sql))" }
        return text
    }
}
