import CSQLite

/// A failed SQLite call: the extended result code, SQLite's own message and the SQL
/// that failed. Bound values are never included (they may be user data or secrets).
public struct DatabaseError: Error, CustomStringConvertible, Equatable {
    /// The extended result code (for example 2067, SQLITE_CONSTRAINT_UNIQUE).
    public let extendedCode: Int32
    public let message: String
    public let sql: String?

    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (SQLITE_BUSY, SQLITE_CONSTRAINT, ...).
    public var code: Int32 { extendedCode & 0xFF }

    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    public var isCorrupt: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }

    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " (while running: \(sql))" }
        return text
    }
}
