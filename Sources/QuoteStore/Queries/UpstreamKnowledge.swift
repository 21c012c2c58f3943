/// What a source adapter may know of the store while it decides what to fetch: read-only,
/// named questions instead of a Database (adapters never write, and hold no SQL).
public struct UpstreamKnowledge {
    let database: Database
    public var path: String { database.path }

    init(database: Database) {
        self.database = database
    }

    public func validators(source: String, url: String) throws(StoreError) -> SyncStateRepository.Validators? {
        try SyncStateRepository(database: database).validators(source: source, url: url)
    }

    /// The serial of the feed manifest `source`'s data came from, if it came from a feed.
    public func feedSerial(source: String) throws(StoreError) -> Int? {
        try FeedTrustRepository(database: database).sourceSerial(source)
    }

    /// The upstream ids of the quotes stored for `source`.
    public func quoteIDs(source: String) throws(StoreError) -> Set<String> {
        try strings("SELECT upstream_id FROM quotes WHERE source = ?1", [.text(source)])
    }

    /// Every author named by `source`'s stored quotes.
    public func authors(source: String) throws(StoreError) -> Set<String> {
        try strings("SELECT DISTINCT author FROM quotes WHERE source = ?1 AND author IS NOT NULL", [.text(source)])
    }

    /// Every character named by a stored death.
    public func deathCharacters() throws(StoreError) -> Set<String> {
        try strings("SELECT DISTINCT character FROM deaths")
    }

    /// Names (in lower case) of the stored characters, and of those the upstream did not
    /// know when asked after `since`: nobody to look up.
    public func settledCharacterNames(unknownSince since: Int) throws(StoreError) -> Set<String> {
        try strings("SELECT lower(name) FROM characters UNION SELECT lower(name) FROM unknown_characters WHERE checked_at > ?1",
                    [.integer(since)])
    }

    /// How often each quote was drawn, by production, over every earlier run of `source`.
    public func samplingDraws(source: String) throws(StoreError) -> [String: [String: Int]] {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("SELECT production, upstream_id, draws FROM sampling_counts WHERE source = ?1")
            try statement.bind([.text(source)])
            var draws: [String: [String: Int]] = [:]
            while try statement.step() { draws[statement.string(0), default: [:]][statement.string(1)] = statement.int(2) }
            return draws
        }
    }

    /// The first column of `sql`'s rows.
    private func strings(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) -> Set<String> {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare(sql)
            try statement.bind(values)
            var result = Set<String>()
            while try statement.step() { result.insert(statement.string(0)) }
            return result
        }
    }
}
