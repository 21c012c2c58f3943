import Foundation
import QuoteBase
import QuoteConfig
import QuoteScheduling
@testable import QuoteStore
import QuoteModels
import QuoteText
@testable import QuoteSync
import TestSupport

/// A store in a temporary folder, a local upstream, and the engine between them.
final class SyncHarness: Sendable {
    private let temporary = TemporaryFolder("quoted-sync")
    var folder: String { temporary.path }
    let server: TestUpstream
    let engine: SyncEngine
    var storePath: String { folder + "/quotes.db" }

    init(_ handler: @escaping TestUpstream.Handler = { _ in .status(404) }) throws {
        server = try TestUpstream(handler)
        engine = SyncEngine(storePath: temporary.file("quotes.db"))
    }

    deinit {
        server.stop()
    }

    func settings(_ kind: SourceSettings.Kind, path: String, name: String? = nil) -> SourceSettings {
        var settings = SourceSettings(name: name ?? (kind == .custom ? "custom.test" : kind.rawValue), kind: kind,
                                      enabled: true, url: server.baseURL + path, interval: 3_600)
        // Room for a loaded machine (the whole suite on two cores): a test that wants a transfer
        // to time out sets its own, shorter deadline.
        settings.timeout = 10
        settings.pauseMilliseconds = 0
        if kind == .weather { settings.apiKey = "SECRET-KEY-123" }
        return settings
    }

    func sync(_ settings: SourceSettings, now: Int = UnixTime.now()) async -> SourceReport {
        await engine.sync(settings, now: now)
    }

    func store() throws -> Store {
        try Store(path: storePath, access: .write)
    }

    /// The raw connection, for a test that plants or reads rows the store's operations never would.
    func database() throws -> Database {
        try store().database
    }

    /// Every data row in the store, as text: equal snapshots mean nothing was written.
    func snapshot() throws -> [String] {
        let database = try database()
        var rows: [String] = []
        for table in ["sources", "quotes", "daily_quotes", "characters", "unknown_characters", "deaths", "markets",
                      "weather_observations", "http_validators"] {
            let statement = try database.prepare("SELECT * FROM \(table) ORDER BY 1")
            let columns = statement.columnCount
            while try statement.step() {
                rows.append(table + ": " + (0..<columns).map { statement.optionalString($0) ?? "NULL" }.joined(separator: "|"))
            }
        }
        return rows
    }

    func state(_ source: String) throws -> (failures: Int, error: String?, status: Int?, retryAfter: Int?, lastSuccess: Int?) {
        let statement = try database().prepare(
            "SELECT consecutive_failures, last_error, last_http_status, retry_after, last_success FROM sync_state WHERE source = ?1")
        try statement.bind(source, at: 1)
        guard try statement.step() else { return (0, nil, nil, nil, nil) }
        return (statement.int(0), statement.optionalString(1), statement.optionalInt(2), statement.optionalInt(3), statement.optionalInt(4))
    }

    func count(_ sql: String) throws -> Int {
        try database().scalarInt(sql) ?? 0
    }
}

/// A custom list body.
func listJSON(_ quotes: [(Int, String)], author: String = "A") -> String {
    "[" + quotes.map { #"{"id": \#($0.0), "category": "c", "text": "\#($0.1)", "source": "\#(author)"}"# }.joined(separator: ",") + "]"
}
