/// Whether another process committed to the store since this connection last asked: SQLite's
/// `PRAGMA data_version`, which changes on every commit by another connection and never on
/// this one's own, so a follower prints once per commit, whatever the file system reports.
public struct StoreVersion {
    private let database: Database

    init(database: Database) { self.database = database }

    /// The store's version as this connection sees it: compare two readings, never the numbers themselves.
    public func current() throws(StoreError) -> Int {
        try database.storeOperation { () throws(DatabaseError) in try database.scalarInt("PRAGMA data_version") ?? 0 }
    }
}
