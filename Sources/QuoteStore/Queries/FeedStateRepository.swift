/// What a spoke keeps of its hub's feed (table `feed_state`).
public struct FeedStateRepository {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    public struct State: Sendable, Equatable {
        public var etag: String?
        public var lastModified: String?
        public var serial: Int
        public var generated: Int
        public var checkedAt: Int

        public init(etag: String?, lastModified: String?, serial: Int, generated: Int, checkedAt: Int) {
            self.etag = etag
            self.lastModified = lastModified
            self.serial = serial
            self.generated = generated
            self.checkedAt = checkedAt
        }
    }

    public func state(hub: String) throws(StoreError) -> State? {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("SELECT etag, last_modified, serial, generated, checked_at FROM feed_state WHERE hub = ?1")
            try statement.bind(hub, at: 1)
            guard try statement.step() else { return nil }
            return State(etag: statement.optionalString(0), lastModified: statement.optionalString(1), serial: statement.int(2),
                         generated: statement.int(3), checkedAt: statement.int(4))
        }
    }

    /// The manifest applied in full (every source it lists synced).
    public func record(hub: String, _ state: State) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
            try database.execute("""
                INSERT INTO feed_state (hub, etag, last_modified, serial, generated, checked_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                ON CONFLICT (hub) DO UPDATE SET etag = ?2, last_modified = ?3, serial = ?4, generated = ?5, checked_at = ?6
                """, [.text(hub), state.etag.map(SQLValue.text) ?? .null, state.lastModified.map(SQLValue.text) ?? .null,
                      .integer(state.serial), .integer(state.generated), .integer(state.checkedAt)])
        }
    }

    /// The hub answered "unchanged".
    public func touch(hub: String, at time: Int) throws(StoreError) {
        try database.storeOperation { () throws(DatabaseError) in
            try database.execute("UPDATE feed_state SET checked_at = ?2 WHERE hub = ?1", [.text(hub), .integer(time)])
        }
    }

    /// The sources that came from `hub` (their recorded URL is its manifest's).
    public func fedSources(manifestURL: String) throws(StoreError) -> [(name: String, kind: String)] {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare("SELECT name, kind FROM sources WHERE url = ?1 ORDER BY name")
            try statement.bind(manifestURL, at: 1)
            var result: [(name: String, kind: String)] = []
            while try statement.step() { result.append((statement.string(0), statement.string(1))) }
            return result
        }
    }
}
