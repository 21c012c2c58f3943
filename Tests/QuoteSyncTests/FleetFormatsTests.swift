import Foundation
import QuoteBase
import QuoteConfig
import QuoteFeed
@testable import QuoteStore
import QuoteModels
import QuoteScheduling
import QuoteText
@testable import QuoteSync
import Synchronization
import Testing
import TestSupport

/// A hub reads lists in any format; its feed carries each as JSON, and a spoke stores the very
/// same rows (id, text, author, category, date), whatever format its own configuration names.
@Suite(.timeLimit(.minutes(10))) struct FleetFormatsTests {
    let hub = TemporaryFolder("quoted-hub")
    let spoke = TemporaryFolder("quoted-spoke")
    let server: TestUpstream
    /// What the upstreams serve, by path ("/lists/custom.wq").
    let lists = Served()

    /// What the upstreams serve, shared with the server's thread.
    final class Served: Sendable {
        private let responses = Mutex<[String: TestUpstream.Response]>([:])
        subscript(path: String) -> TestUpstream.Response? {
            get { responses.withLock { $0[path] } }
        }
        func set(_ path: String, _ response: TestUpstream.Response) { responses.withLock { $0[path] = response } }
    }

    init() throws {
        let root = hub.file("feed")
        let lists = self.lists
        server = try TestUpstream { request in
            if request.path.hasPrefix("/feed/") {
                guard let data = FileManager.default.contents(atPath: root + request.path.dropFirst("/feed".count)) else { return .status(404) }
                return TestUpstream.Response(body: Array(data))
            }
            return lists[request.path] ?? .status(404)
        }
    }

    /// The lists the hub reads: each readable format, with dates where the format carries them.
    static let sources: [(name: String, format: ListFormatCase)] = [
        ("custom.gist", .json), ("custom.mapped", .mappedJSON), ("custom.fortunes", .fortune), ("custom.wq", .atom), ("custom.news", .rss),
    ].filter { $0.1.isRead }

    func serve(_ name: String, _ format: ListFormatCase, _ items: [ListFormatCase.Item]) {
        let response = TestUpstream.Response(headers: [("Content-Type", format.contentType)], body: Array(format.render(items).utf8))
        lists.set("/lists/" + name, response)
    }

    func hubSync(now: Int) async throws {
        let engine = SyncEngine(storePath: hub.file("hub.db"))
        for (name, format) in Self.sources {
            var settings = SourceSettings(name: name, kind: .custom, enabled: true, url: server.baseURL + "/lists/" + name, interval: 3_600)
            settings.timeout = 2
            settings.listFormat = format.format
            let report = await engine.sync(settings, now: now)
            #expect(report.ok, "\(name): \(report.summary)")
        }
        var publish = PublishSettings(dir: hub.file("feed"))
        publish.name = "formats"
        _ = try Publisher(settings: publish, storePath: hub.file("hub.db"), retention: 3_600).publish(now: now)
    }

    /// The spoke names each source with another format (`format = text`): it has no effect there.
    func spokeSync(now: Int) async throws -> [SourceReport] {
        var text = "[fleet]\nhub = \(server.baseURL)/feed/\n"
        text += "[source.happiness]\nenabled = false\n[source.breakingbad]\nenabled = false\n[source.upbit]\nenabled = false\n"
        var configuration = try Configuration.parse(text, file: "spoke.conf")
        // quoted.conf refuses a custom section without a url (and one with its own url is synced
        // directly, not from the hub): the settings a section naming only `format` would give.
        for (name, _) in Self.sources {
            var settings = SourceSettings(name: name, kind: .custom, enabled: true, url: "", interval: 3_600)
            settings.listFormat = ListFormat(kind: .text)
            configuration.sources.append(settings)
        }
        return await FleetSync(engine: SyncEngine(storePath: spoke.file("q.db")), fleet: configuration.fleet!, configuration: configuration)
            .sync(only: nil, now: now).reports
    }

    static func rows(_ path: String) throws -> [String] {
        let database = try Store(path: path, access: .read).database
        let statement = try database.prepare("""
            SELECT source, upstream_id, text, author, category, published, lang FROM quotes WHERE source LIKE 'custom.%' ORDER BY source, upstream_id
            """)
        var rows: [String] = []
        while try statement.step() { rows.append((0..<7).map { statement.optionalString($0) ?? "NULL" }.joined(separator: "|")) }
        return rows
    }

    @Test func aSpokeStoresTheHubsRowsForEveryFormat() async throws {
        let date = 1_796_083_200
        for (name, format) in Self.sources {
            serve(name, format, [.quote(id: 1, text: "first of \(name)", published: date), .quote(id: 2, text: "second & <last>", published: nil),
                                 .quote(id: 300_000_000_000, text: "a big id", published: date + 60)])
        }
        let now = UnixTime.now()
        try await hubSync(now: now)
        let reports = try await spokeSync(now: now + 1)
        #expect(reports.allSatisfy { $0.ok }, "\(reports.map(\.summaryLine))")
        let hubRows = try Self.rows(hub.file("hub.db"))
        #expect(hubRows.count == 3 * Self.sources.count)
        let spokeRows = try Self.rows(spoke.file("q.db"))
        #expect(spokeRows == hubRows, "\(reports.map(\.summaryLine))")
        for (spokeRow, hubRow) in zip(spokeRows, hubRows) where spokeRow != hubRow { Issue.record("spoke \(spokeRow) ≠ hub \(hubRow)") }
        // The date went through the feed: the Gist's dated quote has it on the spoke.
        let spokeStore = try Store(path: spoke.file("q.db"), access: .read).database
        #expect(try spokeStore.scalarInt("SELECT published FROM quotes WHERE source = 'custom.gist' AND upstream_id = '1'") == date)
    }

    /// Ids that are text (a fortune file's derived ids, "007") reach the spoke as they are.
    @Test func textIdsStayText() async throws {
        let body = #"[{"id": "007", "text": "a"}, {"id": "a3f9c2", "text": "b"}, {"id": "12", "text": "c"}, {"id": 9223372036854775807, "text": "d"}, {"id": "-0", "text": "e"}]"#
        lists.set("/lists/custom.ids", TestUpstream.Response(headers: [("Content-Type", "application/json")], body: Array(body.utf8)))
        var settings = SourceSettings(name: "custom.ids", kind: .custom, enabled: true, url: server.baseURL + "/lists/custom.ids", interval: 3_600)
        settings.timeout = 2
        let now = UnixTime.now()
        #expect(await SyncEngine(storePath: hub.file("hub.db")).sync(settings, now: now).ok)
        var publish = PublishSettings(dir: hub.file("feed"))
        publish.name = "formats"
        _ = try Publisher(settings: publish, storePath: hub.file("hub.db"), retention: 3_600).publish(now: now)
        let reports = try await spokeSync(now: now + 1)
        #expect(reports.allSatisfy { $0.ok }, "\(reports.map(\.summaryLine))")
        let spokeRows = try Self.rows(spoke.file("q.db"))
        #expect(spokeRows.map { $0.split(separator: "|")[1] } == ["-0", "007", "12", "9223372036854775807", "a3f9c2"])
        #expect(spokeRows == (try Self.rows(hub.file("hub.db"))))
    }

    /// The hub keeps an archive's dropped entry; so does the spoke, which reads the hub's store.
    @Test func anArchiveStaysAnArchiveOnTheSpoke() async throws {
        let archived = Self.sources.first { $0.format.archive } ?? ("custom.gist", .json)
        var format = archived.format
        if !format.archive { format = ListFormatCase(name: "json archive", format: { var f = ListFormat.json; f.archive = true; return f }(),
                                                     contentType: "application/json", render: format.render, firstPlace: format.firstPlace,
                                                     carriesControls: true, structured: true, archive: true) }
        let source = (name: archived.name, format: format)
        let engine = SyncEngine(storePath: hub.file("hub.db"))
        var settings = SourceSettings(name: source.name, kind: .custom, enabled: true, url: server.baseURL + "/lists/" + source.name, interval: 3_600)
        settings.timeout = 2
        settings.listFormat = format.format
        var publish = PublishSettings(dir: hub.file("feed"))
        publish.name = "formats"
        let now = UnixTime.now()
        serve(source.name, format, ListFormatCase.quotes(1...3, date: 1_796_083_200))
        #expect(await engine.sync(settings, now: now).ok)
        _ = try Publisher(settings: publish, storePath: hub.file("hub.db"), retention: 3_600).publish(now: now)
        #expect(try await spokeSync(now: now + 1).allSatisfy { $0.ok })
        // Yesterday's entries leave the feed; today's comes.
        serve(source.name, format, ListFormatCase.quotes(4...4, date: 1_796_083_200))
        let dropped = await engine.sync(settings, now: now + 10)
        #expect(dropped.ok, "\(dropped.summary)")
        _ = try Publisher(settings: publish, storePath: hub.file("hub.db"), retention: 3_600).publish(now: now + 10)
        let reports = try await spokeSync(now: now + 11)
        #expect(reports.allSatisfy { $0.ok }, "\(reports.map(\.summaryLine))")
        let spokeRows = try Self.rows(spoke.file("q.db"))
        #expect(spokeRows.count == 4, "\(spokeRows)")
        #expect(spokeRows == (try Self.rows(hub.file("hub.db"))))
    }
}
