import CSQLite
import Glibc
import QuoteBase

/// SQLite's SQLITE_TRANSIENT, which Swift does not import: SQLite copies the bytes.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement. Finalized when the last reference goes away.
/// Bound to its connection's thread of use, hence not Sendable.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    private unowned let database: Database

    init(database: Database, sql: String) throws(DatabaseError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, 0, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw database.error(code: code, sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: Binding (1-based indexes, as in SQLite)

    func bind(_ value: Int, at index: Int32) throws(DatabaseError) {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    func bind(_ value: Int64, at index: Int32) throws(DatabaseError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ value: Double, at index: Int32) throws(DatabaseError) {
        try check(sqlite3_bind_double(handle, index, value))
    }

    func bind(_ value: Bool, at index: Int32) throws(DatabaseError) {
        try check(sqlite3_bind_int64(handle, index, value ? 1 : 0))
    }

    /// Binds the text by its byte length, never as a C string: a U+0000 inside must not end it.
    func bind(_ value: String, at index: Int32) throws(DatabaseError) {
        var text = value
        let code = text.withUTF8 { bytes -> Int32 in
            guard let length = Int32(exactly: bytes.count) else { return SQLITE_TOOBIG }
            // An empty buffer may have no address, which SQLite would bind as NULL.
            guard let base = bytes.baseAddress, length > 0 else { return sqlite3_bind_text(handle, index, "", 0, transient) }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(handle, index, $0, length, transient)
            }
        }
        try check(code)
    }

    /// Binds a copy of `column`'s value in `other`'s current row, bytes and type as stored.
    func bind(valueOf other: Statement, column: Int32, at index: Int32) throws(DatabaseError) {
        try check(sqlite3_bind_value(handle, index, sqlite3_column_value(other.handle, column)))
    }

    func bind(_ bytes: [UInt8], at index: Int32) throws(DatabaseError) {
        let code = bytes.withUnsafeBytes { buffer -> Int32 in
            guard let length = Int32(exactly: buffer.count) else { return SQLITE_TOOBIG }
            return sqlite3_bind_blob(handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), length, transient)
        }
        try check(code)
    }

    func bindNull(at index: Int32) throws(DatabaseError) {
        try check(sqlite3_bind_null(handle, index))
    }

    func bind(_ value: String?, at index: Int32) throws(DatabaseError) {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    func bind(_ value: Int?, at index: Int32) throws(DatabaseError) {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    func bind(_ value: Double?, at index: Int32) throws(DatabaseError) {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    /// Binds a list of values to ?1, ?2, ... in order: one for each of the statement's parameters.
    /// Any other count is the program's mistake (a value left NULL, or one that lands nowhere),
    /// refused before anything runs, as SQLite's SQLITE_RANGE would for a single index.
    func bind(_ values: [SQLValue]) throws(DatabaseError) {
        let parameters = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == parameters else {
            throw DatabaseError(extendedCode: SQLITE_RANGE,
                                // English on purpose: a programming error's diagnostic
                                message: "\(Plural.count(values.count, "value")) bound to a statement with \(Plural.count(parameters, "parameter"))",
                                sql: sql)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .null: try bindNull(at: index)
            case .integer(let v): try bind(v, at: index)
            case .real(let v): try bind(v, at: index)
            case .text(let v): try bind(v, at: index)
            }
        }
    }

    // MARK: Stepping

    /// Advances to the next row; false when done.
    @discardableResult
    func step() throws(DatabaseError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(code: code, sql: sql)
        }
    }

    /// Resets for another run, keeping the bindings (a probe run a million times rebinds only
    /// what changes).
    func resetKeepingBindings() {
        sqlite3_reset(handle)
    }

    /// Resets for another run and clears the bindings.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Executes a statement that returns no rows (or whose rows are not wanted).
    func execute(_ values: [SQLValue] = []) throws(DatabaseError) {
        reset()
        try bind(values)
        while try step() {}
    }

    // MARK: Columns (0-based indexes, as in SQLite)

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func int(_ column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    func optionalInt(_ column: Int32) -> Int? {
        isNull(column) ? nil : int(column)
    }

    func double(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    func optionalDouble(_ column: Int32) -> Double? {
        isNull(column) ? nil : double(column)
    }

    func string(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Whether the column's text is `value`, byte for byte, without making a String of it.
    func text(_ column: Int32, equals value: String) -> Bool {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let bytes = sqlite3_column_text(handle, column) else { return value.isEmpty }
        var value = value
        return value.withUTF8 { utf8 in
            utf8.count == count && (count == 0 || memcmp(utf8.baseAddress!, bytes, count) == 0)
        }
    }

    func blob(_ column: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))))
    }

    func optionalString(_ column: Int32) -> String? {
        isNull(column) ? nil : string(column)
    }

    private func check(_ code: Int32) throws(DatabaseError) {
        if code != SQLITE_OK { throw database.error(code: code, sql: sql) }
    }
}

/// A value to bind when the type is only known at run time (query builders).
enum SQLValue: Equatable, Sendable {
    case null
    case integer(Int)
    case real(Double)
    case text(String)
}

@available(*, unavailable)
extension Statement: Sendable {}

extension Statement {
    /// How many columns each result row has.
    var columnCount: Int32 { sqlite3_column_count(handle) }
}
