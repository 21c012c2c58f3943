import QuoteSystem

/// The store's door: its reads are named queries on the store's connection, and its writes run
/// inside `write`, one transaction. The connection (`Database`, `Statement`) and every statement
/// stay inside this module, which the compiler, not a reading of the sources, holds to: no other
/// module can run SQL.
extension Store {
    /// Quotes: at random, the day's, searched, counted, and every one of a source for an export.
    public var quotes: QuotePicker { QuotePicker(database: database) }
    /// Characters, deaths, markets and weather.
    public var listings: Listings { Listings(database: database) }
    /// What `quotectl status` shows of each source, and the names the store knows.
    public var status: StatusQuery { StatusQuery(database: database) }
    /// The rows `check`, the metrics and the daemon's status line are made of.
    public var health: HealthQuery { HealthQuery(database: database) }
    /// Each source's schedule and validators (and the daemon's due times, written as it decides them).
    public var syncState: SyncStateRepository { SyncStateRepository(database: database) }
    /// A spoke's validators of its hub's manifest, and the sources the hub fed.
    public var feedState: FeedStateRepository { FeedStateRepository(database: database) }
    /// What a spoke trusts of its hub's feed.
    public var feedTrust: FeedTrustRepository { FeedTrustRepository(database: database) }
    /// What a hub publishes, as JSON.
    public var feedQueries: FeedQueries { FeedQueries(database: database) }
    /// The words shell completion offers.
    public var vocabulary: Vocabulary { Vocabulary(database: database) }
    /// Whether another process committed since this connection last asked.
    public var version: StoreVersion { StoreVersion(database: database) }

    /// Runs `body` in ONE transaction (BEGIN IMMEDIATE, COMMIT on return, ROLLBACK on a throw),
    /// in the writer's turn (taken for it when the store takes its turn per transaction).
    public func write<T>(_ body: (WriteTransaction) throws(StoreError) -> T) throws(StoreError) -> T {
        let turn = try turnForOneWrite()
        defer { withExtendedLifetime(turn) {} }
        return try WriteTransaction.run(on: database, body)
    }

    /// The WAL copied into the store's file and truncated (`Database.checkpointAndTruncate`):
    /// readers that open the store after a big write need not each recover it. It writes the
    /// store's file, so in the writer's turn, which is not waited for: another writer holding it
    /// checkpoints after its own commit. False (nothing done) when the turn was another's.
    @discardableResult
    public func checkpointAndTruncate() -> Bool {
        let turn: ProcessLock?
        do {
            turn = try turnForOneWrite(patience: .zero)
        } catch {
            return false
        }
        defer { withExtendedLifetime(turn) {} }
        return database.checkpointAndTruncate()
    }

    /// SQLite's quick_check of the store at `path`, on a read-only connection of its own (a check
    /// that runs beside the writer's): nil when the file is sound, else its first complaint.
    public static func quickCheck(path: String) throws(StoreError) -> String? {
        do {
            return try Database(path: path, mode: .readOnly).quickCheck()
        } catch {
            throw StoreError(error, path: path)
        }
    }
}

/// The store's writers inside one write transaction (`Store.write`, `SourceTransaction`): a
/// caller applies one batch all or nothing.
public struct WriteTransaction {
    let database: Database

    public var quotes: QuoteWriter { QuoteWriter(database: database) }
    /// Characters, deaths, markets and weather.
    public var records: RecordWriter { RecordWriter(database: database) }
    public var syncState: SyncStateRepository { SyncStateRepository(database: database) }
    public var feedTrust: FeedTrustRepository { FeedTrustRepository(database: database) }
    /// A spoke's validators of its hub's manifest.
    public var feedState: FeedStateRepository { FeedStateRepository(database: database) }

    static func run<T>(on database: Database, _ body: (WriteTransaction) throws(StoreError) -> T) throws(StoreError) -> T {
        try database.transaction { () throws(StoreError) in try body(WriteTransaction(database: database)) }
    }
}
