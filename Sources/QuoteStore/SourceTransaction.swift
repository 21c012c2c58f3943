import QuoteBase
import QuoteSystem
import Synchronization

/// A source's ONE transaction and the connection it runs on. The engine commits it together with
/// the sync state, or rolls it back on any failure; until the commit, readers see the store as it
/// was.
///
/// The store is opened to take its writer's turn per transaction (`Store.Turn.perTransaction`):
/// the turn (`WriterTurn`) is taken when the transaction begins (`commit`, or a write of its own:
/// a failure recorded, a block shortened) and given back when it ends, so no transfer holds it.
/// A list spools its body outside it as it streams in (`SpoolFile`) and is decoded and merged
/// inside it, in the engine's apply.
///
/// The connection lives inside this lock: whoever uses the store during a sync (the engine, an
/// adapter's questions) does so through `withConnection`, one at a time, as SQLite requires of a
/// connection. The compiler checks it: the store is handed over at `init` (`sending`) and never
/// leaves.
public final class SourceTransaction: Sendable {
    /// The store's named operations on this sync's connection, inside its transaction when one is open.
    public struct Connection {
        let store: Store

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

        /// Runs `body` in a write transaction of its own, in the writer's turn: what a sync records
        /// once its own transaction was rolled back (its failure), or before it began.
        public func write<T>(_ body: (WriteTransaction) throws(StoreError) -> T) throws(StoreError) -> T {
            try store.write(body)
        }
    }

    private let connection: Mutex<Connection>
    /// Starts the store's check before its first write (the engine's quick_check, once per process).
    private let beforeFirstWrite: @Sendable () throws -> Void

    public init(store: sending Store, beforeFirstWrite: @escaping @Sendable () throws -> Void) {
        connection = Mutex(Connection(store: store))
        self.beforeFirstWrite = beforeFirstWrite
    }

    /// Runs `body` with the connection, outside any transaction.
    public func withConnection<Result, Failure: Error>(_ body: (inout sending Connection) throws(Failure) -> sending Result)
        throws(Failure) -> sending Result {
        try connection.withLock { (connection: inout sending Connection) throws(Failure) -> sending Result in try body(&connection) }
    }

    /// The store is about to be written (a list's first bytes arrived): its check may start now,
    /// beside the transfer, rather than before the commit.
    public func expectWrite() {
        try? beforeFirstWrite()
    }

    /// Commits what `body` adds to ONE transaction, in the writer's turn: the turn is taken, then
    /// BEGIN IMMEDIATE, `body`, COMMIT, and the turn given back (the caller checks the store first
    /// when `body` writes rows). SQLite stops when `cancel` is set, and whatever fails rolls the
    /// whole transaction back.
    public func commit(interruptibleBy cancel: CancelFlag, _ body: (inout sending Connection) throws -> Void) throws {
        try connection.withLock { (connection: inout sending Connection) throws in
            let database = connection.database
            let turn = try connection.store.turnForOneWrite()
            defer { withExtendedLifetime(turn) {} }
            try database.begin()
            database.interrupt(by: cancel)
            defer { database.interrupt(by: nil) }
            do {
                try body(&connection)
            } catch {
                database.rollback()
                throw error
            }
            try database.commit()
        }
    }


    /// After the commit: the WAL copied back into the store's file (`Store.checkpointAndTruncate`).
    public func checkpointAndTruncate() {
        connection.withLock { connection in _ = connection.store.checkpointAndTruncate() }
    }
}
