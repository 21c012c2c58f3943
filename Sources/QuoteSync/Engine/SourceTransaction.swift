import QuoteStore
import Synchronization

/// A source's ONE transaction, which an adapter that streams may open early: the first body byte
/// of a list opens it, records are written into it as they are decoded, and the engine commits
/// it together with the sync state, or rolls it back on any failure. Until the commit, readers
/// see the store as it was.
///
/// @unchecked Sendable for one thing only, the connection: a non-Sendable `Database` the engine
/// also uses around the transaction (its sync state, interrupts, the checkpoint), lent to the
/// list's writer thread while the body arrives (the engine awaits the transfer and joins the
/// writer before it touches the connection again). A `Mutex` cannot own it while the engine keeps
/// using it outside. Everything else is checked: whether the transaction is open lives in a
/// `Mutex`, and the first write's check is a `@Sendable` closure.
public final class SourceTransaction: @unchecked Sendable {
    let database: Database
    /// Checks the store before its first write (the engine's quick_check, once per process).
    private let beforeFirstWrite: @Sendable () throws -> Void
    private let opened = Mutex(false)
    public var isOpen: Bool { opened.withLock { $0 } }

    init(database: Database, beforeFirstWrite: @escaping @Sendable () throws -> Void) {
        self.database = database
        self.beforeFirstWrite = beforeFirstWrite
    }

    /// The connection, inside the transaction (BEGIN IMMEDIATE on the first call).
    public func open() throws -> Database {
        if !isOpen {
            try beforeFirstWrite()
            try begin()
        }
        return database
    }

    /// Commits what `body` adds to the transaction, beginning one if nothing did yet (the caller
    /// checks the store first when `body` writes rows).
    func commit<T>(_ body: () throws -> T) throws -> T {
        if !isOpen { try begin() }
        defer { opened.withLock { $0 = false } }
        return try database.finishTransaction(body)
    }

    /// Abandons whatever was written.
    func rollBack() {
        database.rollback()
        opened.withLock { $0 = false }
    }

    private func begin() throws {
        try database.begin()
        opened.withLock { $0 = true }
    }
}
