import QuoteBase
import Synchronization

/// A source's ONE transaction and the connection it runs on, which an adapter that streams may
/// open early: the first body byte of a list opens it, records are written into it as they are
/// decoded, and the engine commits it together with the sync state, or rolls it back on any
/// failure. Until the commit, readers see the store as it was.
///
/// The connection lives inside this lock, and with it the list's merge (whose statements are the
/// connection's): whoever uses the store during a sync — the engine, an adapter's questions, the
/// list's writer thread — does so through `withConnection`, one at a time, as SQLite requires of
/// a connection. The compiler checks it: the store is handed over at `init` (`sending`) and
/// never leaves; with it, this process's turn to write (`WriterTurn`) lasts as long as the connection.
public final class SourceTransaction: Sendable {
    /// The store's named operations on this sync's connection, inside its transaction when one is open.
    public struct Connection {
        let store: Store
        /// The custom list's merge, writing into this transaction as records arrive.
        public var listMerge: ListMerge?
        /// Whether BEGIN was run and neither COMMIT nor ROLLBACK yet.
        fileprivate(set) var isOpen = false

        var database: Database { store.database }
        public var quotes: QuoteWriter { QuoteWriter(database: database) }
        /// Characters, deaths, markets and weather.
        public var records: RecordWriter { RecordWriter(database: database) }
        public var syncState: SyncStateRepository { SyncStateRepository(database: database) }
        public var feedTrust: FeedTrustRepository { FeedTrustRepository(database: database) }
        /// What an adapter may ask of the store while it decides what to fetch.
        public var knowledge: UpstreamKnowledge { UpstreamKnowledge(database: database) }

        /// A merge of `source`'s list into this connection's transaction.
        public func makeListMerge(source: String, url: String?, now: Int) throws(StoreError) -> ListMerge {
            try ListMerge(database: database, source: source, url: url, now: now)
        }

        /// Runs `body` in a write transaction of its own: what a sync records once its own
        /// transaction was rolled back (its failure), or before it began.
        public func write<T>(_ body: (WriteTransaction) throws(StoreError) -> T) throws(StoreError) -> T {
            try WriteTransaction.run(on: database, body)
        }
    }

    private let connection: Mutex<Connection>
    /// Checks the store before its first write (the engine's quick_check, once per process).
    private let beforeFirstWrite: @Sendable () throws -> Void

    public init(store: sending Store, beforeFirstWrite: @escaping @Sendable () throws -> Void) {
        connection = Mutex(Connection(store: store))
        self.beforeFirstWrite = beforeFirstWrite
    }

    /// Runs `body` with the connection (outside the transaction, or inside it if one is open).
    public func withConnection<Result, Failure: Error>(_ body: (inout sending Connection) throws(Failure) -> sending Result)
        throws(Failure) -> sending Result {
        try connection.withLock { (connection: inout sending Connection) throws(Failure) -> sending Result in try body(&connection) }
    }

    /// Runs `body` inside the transaction, opening it first if it is not (the store checked, then
    /// BEGIN IMMEDIATE): how a streaming adapter writes.
    public func writing<Result>(_ body: (inout sending Connection) throws -> sending Result) throws -> sending Result {
        let checkFirst = beforeFirstWrite
        return try connection.withLock { (connection: inout sending Connection) throws -> sending Result in
            if !connection.isOpen {
                try checkFirst()
                try connection.database.begin()
                connection.isOpen = true
            }
            return try body(&connection)
        }
    }

    /// Commits what `body` adds to the transaction, beginning one if nothing did yet (the caller
    /// checks the store first when `body` writes rows); SQLite stops when `cancel` is set, and
    /// whatever fails rolls the whole transaction back.
    public func commit(interruptibleBy cancel: CancelFlag, _ body: (inout sending Connection) throws -> Void) throws {
        try connection.withLock { (connection: inout sending Connection) throws in
            let database = connection.database
            if !connection.isOpen { try database.begin() }
            database.interrupt(by: cancel)
            defer {
                database.interrupt(by: nil)
                connection.isOpen = false
                connection.listMerge = nil
            }
            do {
                try body(&connection)
            } catch {
                database.rollback()
                throw error
            }
            try database.commit()
        }
    }

    /// Abandons whatever was written.
    public func rollBack() {
        connection.withLock { connection in
            connection.database.rollback()
            connection.isOpen = false
            connection.listMerge = nil
        }
    }

    /// After the commit: the WAL copied back into the store's file (`Store.checkpointAndTruncate`).
    public func checkpointAndTruncate() {
        connection.withLock { connection in _ = connection.database.checkpointAndTruncate() }
    }
}
