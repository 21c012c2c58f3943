import QuoteStore

/// A source's ONE transaction, which an adapter that streams may open early: the first body byte
/// of a list opens it, records are written into it as they are decoded, and the engine commits
/// it together with the sync state, or rolls it back on any failure. Until the commit, readers
/// see the store as it was.
///
/// @unchecked Sendable: it hands one SQLite connection (a non-Sendable `Database`) from the
/// engine to the list's writer thread and back, one thread at a time — the writer while the body
/// arrives (the engine awaits the transfer and joins the writer), then the engine. A `Mutex`
/// cannot hold it: `open()` must give the connection out, and a value kept in a Mutex cannot
/// leave it unless it is Sendable.
public final class SourceTransaction: @unchecked Sendable {
    let database: Database
    /// Checks the store before its first write (the engine's quick_check, once per process).
    private let beforeFirstWrite: () throws -> Void
    public private(set) var isOpen = false

    init(database: Database, beforeFirstWrite: @escaping () throws -> Void) {
        self.database = database
        self.beforeFirstWrite = beforeFirstWrite
    }

    /// The connection, inside the transaction (BEGIN IMMEDIATE on the first call).
    public func open() throws -> Database {
        if !isOpen {
            try beforeFirstWrite()
            try database.begin()
            isOpen = true
        }
        return database
    }

    /// Commits what `body` adds to the transaction, beginning one if nothing did yet (the caller
    /// checks the store first when `body` writes rows).
    func commit<T>(_ body: () throws -> T) throws -> T {
        if !isOpen {
            try database.begin()
            isOpen = true
        }
        defer { isOpen = false }
        return try database.finishTransaction(body)
    }

    /// Abandons whatever was written.
    func rollBack() {
        database.rollback()
        isOpen = false
    }
}
