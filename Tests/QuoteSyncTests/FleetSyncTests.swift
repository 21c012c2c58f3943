import Foundation
import QuoteBase
import QuoteConfig
@testable import QuoteFeed
import QuoteStore
@testable import QuoteSync
import Testing
import TestSupport


/// A spoke against a feed served from a folder (what nginx does, minus nginx: the end-to-end
/// script runs the real one). Every rule of a direct sync holds for feed data.
@Suite struct FleetSyncTests {
    let hub = TemporaryFolder("quoted-hub")
    let spoke = TemporaryFolder("quoted-spoke")
    let server: TestUpstream

    init() throws {
        let root = hub.file("feed")
        server = try TestUpstream { request in
            guard let data = FileManager.default.contents(atPath: root + request.path) else { return .status(404) }
            return TestUpstream.Response(headers: [("ETag", "\"\(data.count)-\(data.hashValue)\"")], body: Array(data))
        }
    }

    /// The hub's store with a list of `count` quotes, published.
    @discardableResult
    func publish(_ count: Int, signed: Bool = false, text: String = "quote") throws -> Manifest {
        let store = try Store(path: hub.file("hub.db"), access: .write)
        try store.database.transaction {
            let writer = QuoteWriter(database: store.database)
            try writer.ensureSource("custom.list", url: "https://example.com/l", now: 1)
            _ = try writer.apply((1...max(count, 1)).prefix(count).map {
                Quote(source: "custom.list", upstreamID: String($0), text: "\(text) \($0)", author: "A", category: nil, lang: "en")
            }, to: "custom.list", removeMissing: true, now: 1)
        }
        var settings = PublishSettings(dir: hub.file("feed"))
        if signed {
            if !FileManager.default.fileExists(atPath: hub.file("hub.sec")) {
                try runTool("/usr/bin/signify-openbsd", ["-G", "-n", "-p", hub.file("hub.pub"), "-s", hub.file("hub.sec")])
            }
            settings.signingKey = hub.file("hub.sec")
        }
        return try Publisher(settings: settings, storePath: hub.file("hub.db"), retention: 3_600).publish().manifest
    }

    func sync(key: Bool = false, extra: String = "") async throws -> FleetSync.Outcome {
        var text = "[fleet]\nhub = \(server.baseURL)/\n" + (key ? "hub_key = \(hub.file("hub.pub"))\n" : "") + extra
        text += "[source.happiness]\nenabled = false\n[source.breakingbad]\nenabled = false\n[source.upbit]\nenabled = false\n"
        let configuration = try Configuration.parse(text, file: "spoke.conf")
        return await FleetSync(engine: SyncEngine(storePath: spoke.file("q.db")), fleet: configuration.fleet!, configuration: configuration)
            .sync(only: nil)
    }

    func count() throws -> Int {
        try Store(path: spoke.file("q.db"), access: .read).database.scalarInt("SELECT count(*) FROM quotes WHERE source = 'custom.list'") ?? 0
    }

    @Test func aSpokeTakesTheListThenOnlyWhatChanged() async throws {
        try publish(20)
        let first = try await sync()
        #expect(first.reports.map(\.ok) == [true], "\(first.reports)")
        #expect(try count() == 20)
        let requests = server.requests.count
        let again = try await sync()
        #expect(again.reports.first?.summary.hasPrefix("not modified") == true, "\(again.reports)")
        #expect(server.requests.count == requests + 1, "an unchanged feed costs the manifest alone")
        try publish(20, text: "changed")
        #expect(try await sync().reports.first?.counts.updated == 20)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/signify-openbsd")))
    func anUnsignedOrBadlySignedManifestIsRefusedAndNothingWritten() async throws {
        try publish(5, signed: true)
        _ = try await sync(key: true)
        #expect(try count() == 5)
        try publish(9, signed: true)
        try FileManager.default.removeItem(atPath: hub.file("feed/manifest.json.sig"))
        let unsigned = try await sync(key: true)
        #expect(unsigned.reports.first?.summary == "feed: signature does not verify (manifest.json.sig: HTTP 404)", "\(unsigned.reports)")
        #expect(try count() == 5)
        try publish(9, signed: true)
        var manifest = try String(contentsOfFile: hub.file("feed/manifest.json"), encoding: .utf8)
        manifest = manifest.replacingOccurrences(of: "\"rows\":9", with: "\"rows\":8")
        try manifest.write(toFile: hub.file("feed/manifest.json"), atomically: true, encoding: .utf8)
        let tampered = try await sync(key: true)
        #expect(tampered.reports.first?.summary.hasPrefix("feed: signature does not verify") == true, "\(tampered.reports)")
        #expect(try count() == 5)
    }

    @Test func anOlderFeedIsNotAppliedAndAVanishedSourceKeepsItsRows() async throws {
        let newer = try publish(6)
        _ = try await sync()
        // A restored hub (or a stale cache) serves an older manifest: refused.
        var old = newer
        old.serial = newer.serial - 1
        old.sources = []
        try old.json.write(toFile: hub.file("feed/manifest.json"), atomically: true, encoding: .utf8)
        let outcome = try await sync()
        #expect(outcome.reports.first?.summary.contains("older than the one applied here") == true, "\(outcome.reports)")
        #expect(try count() == 6)
        // A newer manifest without the list: its rows stay, as a list removed from the configuration's do.
        old.serial = newer.serial + 5
        try old.json.write(toFile: hub.file("feed/manifest.json"), atomically: true, encoding: .utf8)
        _ = try await sync()
        #expect(try count() == 6)
    }

    @Test func aSourceWithAURLOfItsOwnStaysDirect() async throws {
        try publish(3)
        let outcome = try await sync(extra: "[source.custom.list]\nurl = http://127.0.0.1:1/elsewhere.json\n")
        #expect(outcome.fed.isEmpty)
        #expect(outcome.reports.isEmpty)
    }

    @Test func aFileThatDoesNotMatchTheManifestIsNotDecoded() async throws {
        let manifest = try publish(4)
        let file = hub.file("feed/" + manifest.sources[0].file)
        try #"[{"id": 1, "text": "evil"}]"#.write(toFile: file, atomically: true, encoding: .utf8)
        let outcome = try await sync()
        #expect(outcome.reports.first?.summary.contains("the manifest says") == true, "\(outcome.reports)")
        let stored = FileManager.default.fileExists(atPath: spoke.file("q.db")) ? try count() : 0
        #expect(stored == 0)
    }
}
