import QuoteModels
/// What a spoke trusts of its hub's feed (tables `feed_trust`, `feed_source_serials`, `feed_keys`).
/// Every call throws: a spoke that cannot read or write what it trusts syncs nothing.
public struct FeedTrustRepository {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    /// Every feed this spoke has trusted, newest check first.
    public func feeds() throws(StoreError) -> [FeedTrust] {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("SELECT name, serial, generated, valid_until, checked_at FROM feed_trust ORDER BY checked_at DESC, name")
            var feeds: [FeedTrust] = []
            while try statement.step() {
                feeds.append(FeedTrust(name: statement.string(0), serial: statement.int(1), generated: statement.int(2),
                                   validUntil: statement.int(3), checkedAt: statement.int(4)))
            }
            return feeds
        }
    }

    public func trust(name: String) throws(StoreError) -> FeedTrust? {
        try feeds().first { $0.name == name }
    }

    /// A manifest verified: its serial is the floor from now on (never lowered), its validity the feed's.
    /// A hub's milliseconds serial is above every seconds serial of an older one, so `max` keeps the later.
    public func record(_ trust: FeedTrust) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
            try database.execute("""
                INSERT INTO feed_trust (name, serial, generated, valid_until, checked_at) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (name) DO UPDATE SET serial = max(serial, ?2), generated = ?3, valid_until = ?4, checked_at = ?5
                """, [.text(trust.name), .integer(trust.serial), .integer(trust.generated), .integer(trust.validUntil), .integer(trust.checkedAt)])
        }
    }

    /// The server answered "unchanged".
    public func touch(name: String, at time: Int) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
            try database.execute("UPDATE feed_trust SET checked_at = ?2 WHERE name = ?1", [.text(name), .integer(time)])
        }
    }

    /// The serial of the manifest `source`'s data came from, if it came from a feed.
    public func sourceSerial(_ source: String) throws(StoreError) -> Int? {
        try database.storeOperation { () throws(DatabaseError) in
            try database.scalarInt("SELECT serial FROM feed_source_serials WHERE source = ?1", [.text(source)])
        }
    }

    public func recordSourceSerial(_ source: String, name: String, serial: Int) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
            try database.execute("""
                INSERT INTO feed_source_serials (source, name, serial) VALUES (?1, ?2, ?3)
                ON CONFLICT (source) DO UPDATE SET name = ?2, serial = max(serial, ?3)
                """, [.text(source), .text(name), .integer(serial)])
        }
    }

    /// The keys `name`'s manifests announced (signify's base64 lines), newest first.
    public func adoptedKeys(name: String) throws(StoreError) -> [String] {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("SELECT key FROM feed_keys WHERE name = ?1 ORDER BY serial DESC, key")
            try statement.bind(name, at: 1)
            var keys: [String] = []
            while try statement.step() { keys.append(statement.string(0)) }
            return keys
        }
    }

    public func adopt(keys: [String], name: String, serial: Int) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
            for key in keys {
                try database.execute("INSERT INTO feed_keys (name, key, serial) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
                                     [.text(name), .text(key), .integer(serial)])
            }
        }
    }
}
