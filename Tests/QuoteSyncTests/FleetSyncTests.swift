import Foundation
import QuoteBase
import QuoteConfig
@testable import QuoteFeed
@testable import QuoteStore
import QuoteModels
import QuoteText
@testable import QuoteSync
import Testing
import TestSupport


/// A spoke against a feed served from a folder (what nginx does, minus nginx: the end-to-end
/// script runs the real one). Every rule of a direct sync holds for feed data.
@Suite(.timeLimit(.minutes(10))) struct FleetSyncTests {
    let hub = TemporaryFolder("quoted-hub")
    let spoke = TemporaryFolder("quoted-spoke")
    let server: TestUpstream

    init() throws {
        let root = hub.file("feed")
        server = try TestUpstream { request in
            guard let data = FileManager.default.contents(atPath: root + request.path) else { return .status(404) }
            // A strong ETag of the bytes, answered with 304 as nginx does.
            let etag = "\"\(data.count)-\(FeedDigest.hex(Array(data)) ?? "")\""
            if request.headers["if-none-match"] == etag { return .status(304, headers: [("ETag", etag)]) }
            return TestUpstream.Response(headers: [("ETag", etag)], body: Array(data))
        }
    }

    /// A day, in seconds.
    static let day = 86_400

    /// The hub's store with a list of `count` quotes, published.
    /// A signify key pair in the hub's folder (made once).
    func key(_ name: String) throws -> (public: String, secret: String) {
        let (pub, sec) = (hub.file("\(name).pub"), hub.file("\(name).sec"))
        if !FileManager.default.fileExists(atPath: sec) {
            try runTool("/usr/bin/signify-openbsd", ["-G", "-n", "-p", pub, "-s", sec])
        }
        return (pub, sec)
    }

    @discardableResult
    func publish(_ count: Int, signed: Bool = false, text: String = "quote", keys: [String]? = nil, next: [String] = [],
                 name: String? = "test-feed", now: Int = UnixTime.now(), validFor: Int = 7 * 86_400) throws -> Manifest {
        let store = try Store(path: hub.file("hub.db"), access: .write)
        try store.write { (transaction) throws(StoreError) in
            let writer = transaction.quotes
            try writer.ensureSource("custom.list", url: "https://example.com/l", now: 1)
            _ = try writer.apply((1...max(count, 1)).prefix(count).map {
                Quote(source: "custom.list", upstreamID: String($0), text: "\(text) \($0)", author: "A", category: nil, lang: "en")
            }, to: "custom.list", removeMissing: true, now: 1)
        }
        try store.syncState.recordSuccess(
            source: "custom.list", url: "https://example.com/l", validators: [],
            outcome: .init(ok: true, httpStatus: 200, message: "ok", started: 1, finished: 1), nextDue: 2)
        var settings = PublishSettings(dir: hub.file("feed"))
        settings.name = name
        settings.validFor = validFor
        if signed || keys != nil { settings.signingKeys = try keys ?? [key("hub").secret] }
        settings.nextKeys = next
        return try Publisher(settings: settings, storePath: hub.file("hub.db"), retention: 3_600).publish(now: now).manifest
    }

    func sync(key: Bool = false, keys: [String]? = nil, extra: String = "", upbit: Bool = false,
              now: Int = UnixTime.now()) async throws -> FleetSync.Outcome {
        let trusted = try keys ?? (key ? [self.key("hub").public] : [])
        var text = "[fleet]\nhub = \(server.baseURL)/\n" + (trusted.isEmpty ? "" : "hub_key = \(trusted.joined(separator: ", "))\n") + extra
        text += "[source.happiness]\nenabled = false\n[source.breakingbad]\nenabled = false\n" + (upbit ? "" : "[source.upbit]\nenabled = false\n")
        let configuration = try Configuration.parse(text, file: "spoke.conf")
        return await FleetSync(engine: SyncEngine(storePath: spoke.file("q.db")), fleet: configuration.fleet!, configuration: configuration)
            .sync(only: nil, now: now)
    }

    /// The signed manifest file of the hub's key.
    func signedFile(_ name: String = "hub") throws -> String {
        hub.file("feed/manifest.\(try Signify.publicKey(file: key(name).public).number).signed")
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
        let later = UnixTime.now() + 600
        let again = try await sync(now: later)
        #expect(again.reports.first?.summary.hasPrefix("not modified (feed unchanged)") == true, "\(again.reports)")
        #expect(server.requests.count == requests + 1, "an unchanged feed costs the manifest alone")
        let state = try Store(path: spoke.file("q.db"), access: .read).database
        #expect(try state.scalarInt("SELECT last_success FROM sync_state WHERE source = 'custom.list'") == later,
                "a 304 for a valid manifest is a success: a quiet feed is not a stale one")
        #expect(try state.scalarInt("SELECT syncs_ok_total FROM sync_state WHERE source = 'custom.list'") == 2)
        try publish(20, text: "changed")
        #expect(try await sync().reports.first?.counts.updated == 20)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/signify-openbsd")))
    func anUnsignedOrBadlySignedManifestIsRefusedAndNothingWritten() async throws {
        try publish(5, signed: true)
        _ = try await sync(key: true)
        #expect(try count() == 5)
        try publish(9, signed: true)
        let signed = try signedFile()
        let number = try Signify.publicKey(file: key("hub").public).number
        let bytes = try Data(contentsOf: URL(fileURLWithPath: signed))
        try FileManager.default.removeItem(atPath: signed)
        let unsigned = try await sync(key: true)
        #expect(unsigned.reports.first?.summary.hasPrefix("feed: no manifest signed by a key this spoke trusts (key \(number): HTTP 404)") == true,
                "\(unsigned.reports)")
        #expect(try count() == 5)
        let tampered = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"rows\":9", with: "\"rows\":8")
        try tampered.write(toFile: signed, atomically: true, encoding: .utf8)
        let forged = try await sync(key: true)
        #expect(forged.reports.first?.summary.hasPrefix("feed: signature does not verify") == true, "\(forged.reports)")
        #expect(try count() == 5)
        // Signed by a key the spoke was not given: refused, naming the key.
        _ = try key("other")
        try publish(9, keys: [key("other").secret])
        let other = try await sync(keys: [key("hub").public])
        #expect(other.reports.first?.summary.contains("no manifest signed by a key this spoke trusts") == true, "\(other.reports)")
        #expect(try count() == 5)
    }

    /// Expiry: a manifest past valid_until is refused, and so is a 304 for one applied that has
    /// expired since — a frozen mirror cannot keep a spoke on old data while it says "fresh".
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/signify-openbsd")))
    func anExpiredManifestIsRefusedEvenWhenTheServerSaysUnchanged() async throws {
        let start = UnixTime.now()
        try publish(5, signed: true, now: start)
        let fresh = try await sync(key: true, now: start + 60)
        #expect(fresh.reports.map(\.ok) == [true], "\(fresh.reports)")
        let frozen = try await sync(key: true, now: start + 8 * Self.day)
        #expect(frozen.reports.first?.httpStatus == nil)
        #expect(frozen.reports.first?.summary.contains("the manifest applied here expired") == true, "\(frozen.reports)")
        #expect(frozen.reports.first?.ok == false && frozen.reports.first?.storeExitCode == nil)
        #expect(try count() == 5)
        // A replay of that signed manifest to a spoke that never saw it, after its expiry.
        try FileManager.default.removeItem(atPath: spoke.file("q.db"))
        let replay = try await sync(key: true, now: start + 8 * Self.day)
        #expect(replay.reports.first?.summary.hasPrefix("feed: the hub's manifest expired 24 h ago") == true, "\(replay.reports)")
        let store = try Store(path: spoke.file("q.db"), access: .read)
        #expect(try store.feedTrust.feeds().isEmpty, "an expired manifest is not trusted on first use")
    }

    /// Rollback: a verified older manifest is never applied (the floor is the newest verified, kept
    /// per feed name, whatever its sources did); another feed signed by the same key is refused.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/signify-openbsd")))
    func anOlderOrAnotherFeedIsRefused() async throws {
        let start = UnixTime.now()
        try publish(5, signed: true, now: start)
        let old = try Data(contentsOf: URL(fileURLWithPath: try signedFile()))
        try publish(6, signed: true, now: start + 10)
        _ = try await sync(key: true, now: start + 20)
        #expect(try count() == 6)
        try old.write(to: URL(fileURLWithPath: try signedFile()))
        let replay = try await sync(key: true, now: start + 30)
        #expect(replay.reports.first?.summary.contains("is older than one verified here") == true, "\(replay.reports)")
        #expect(try count() == 6)
        try publish(7, signed: true, name: "staging", now: start + 40)
        let staging = try await sync(key: true, now: start + 50)
        #expect(staging.reports.first?.summary.contains("not 'test-feed' which this spoke follows") == true, "\(staging.reports)")
        #expect(try count() == 6)
        let pinned = try await sync(key: true, extra: "name = staging\n", now: start + 60)
        #expect(pinned.reports.map(\.ok) == [true], "following another feed is a decision: [fleet] name")
        #expect(try count() == 7)
    }

    /// A hub whose folder was lost starts again above every serial it wrote: spokes take it at once.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/signify-openbsd")))
    func aHubThatLostItsFolderIsNotLockedOut() async throws {
        let start = UnixTime.now()
        for round in 0..<3 { try publish(5 + round, signed: true, now: start + round) }
        _ = try await sync(key: true, now: start + 5)
        try FileManager.default.removeItem(atPath: hub.file("feed"))
        let again = try publish(9, signed: true, now: start + 10)
        #expect(again.serial >= (start + 10) * 1_000)
        #expect(try await sync(key: true, now: start + 20).reports.map(\.ok) == [true])
        #expect(try count() == 9)
    }

    /// A hub that published several times within one second (every source of a start syncing at
    /// once), then lost its folder, is taken a second later: its serials stayed at its clock.
    @Test func aHubThatPublishedFastAndLostItsFolderIsTakenASecondLater() async throws {
        let start = UnixTime.now()
        for round in 0..<3 { try publish(5 + round, now: start) }
        #expect(try await sync(now: start).reports.map(\.ok) == [true])
        try FileManager.default.removeItem(atPath: hub.file("feed"))
        try publish(9, now: start + 1)
        let again = try await sync(now: start + 1)
        #expect(again.reports.map(\.ok) == [true], "\(again.reports)")
        #expect(try count() == 9)
    }

    /// A spoke that holds a serial in seconds (its hub's, from before serials were milliseconds,
    /// 400 s ahead of the clock) takes the upgraded hub's first serial, then refuses a rollback.
    @Test func aSpokeHoldingASecondsSerialTakesItsUpgradedHub() async throws {
        let start = UnixTime.now()
        var seconds = try publish(5, now: start)
        seconds.serial = start + 400
        try seconds.json.write(toFile: hub.file("feed/manifest.json"), atomically: true, encoding: .utf8)
        #expect(try await sync(now: start).reports.map(\.ok) == [true])
        let upgraded = try publish(6, now: start + 1)
        #expect(upgraded.serial > (start + 400) * 1_000, "the hub continues above its seconds serial, in milliseconds")
        let taken = try await sync(now: start + 1)
        #expect(taken.reports.map(\.ok) == [true], "\(taken.reports)")
        #expect(try count() == 6)
        // Above the seconds serial as a number, before it as a time: a rollback.
        var rollback = upgraded
        rollback.serial = start * 1_000
        rollback.sources = []
        try rollback.json.write(toFile: hub.file("feed/manifest.json"), atomically: true, encoding: .utf8)
        let refused = try await sync(now: start + 2)
        #expect(refused.reports.first?.summary.contains("older than one verified here") == true, "\(refused.reports)")
        #expect(try count() == 6)
    }

    /// The check itself: a serial held in seconds counts as that many thousand milliseconds.
    @Test func aHeldSecondsSerialComparesAsMilliseconds() throws {
        let configuration = try Configuration.parse("[fleet]\nhub = http://127.0.0.1:1/\n", file: "spoke.conf")
        let fleet = FleetSync(engine: SyncEngine(storePath: spoke.file("q.db")), fleet: configuration.fleet!, configuration: configuration)
        let now = 1_800_000_000
        let held = FeedTrust(name: "test-feed", serial: now + 400, generated: now, validUntil: now + Self.day, checkedAt: now)
        func manifest(_ serial: Int) -> Manifest {
            Manifest(name: "test-feed", serial: serial, generated: now, validUntil: now + Self.day, sources: [])
        }
        #expect(fleet.refusal(of: manifest((now + 400) * 1_000 + 1), pinned: "test-feed", trust: held, now: now) == nil)
        let rollback = fleet.refusal(of: manifest(now * 1_000), pinned: "test-feed", trust: held, now: now)
        #expect(rollback?.message.contains("older than one verified here") == true, "\(String(describing: rollback))")
        #expect(fleet.refusal(of: manifest(now + 399), pinned: "test-feed", trust: held, now: now) != nil)
    }

    /// Rotation without a flag day: the hub signs with both keys and announces the new one; spokes
    /// adopt it; the old key retires and they follow. A spoke that never heard of it is told how to mend.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/signify-openbsd")))
    func aKeyRotatesWithoutTouchingTheSpokes() async throws {
        let (old, new) = (try key("hub"), try key("new"))
        let start = UnixTime.now()
        try publish(5, keys: [old.secret, new.secret], next: [new.public], now: start)
        #expect(try await sync(keys: [old.public], now: start + 1).reports.map(\.ok) == [true])
        try publish(6, keys: [new.secret], now: start + 2)
        #expect(!FileManager.default.fileExists(atPath: try signedFile("hub")), "a retired key leaves no manifest behind")
        let followed = try await sync(keys: [old.public], now: start + 3)
        #expect(followed.reports.map(\.ok) == [true], "\(followed.reports)")
        #expect(try count() == 6)
        try FileManager.default.removeItem(atPath: spoke.file("q.db"))
        let stranded = try await sync(keys: [old.public], now: start + 4)
        #expect(stranded.reports.first?.summary.contains("add its public key to hub_key") == true, "\(stranded.reports)")
    }

    /// Mirrors: one that is down or lags (an older serial) is passed over for the next, whose files are read.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/signify-openbsd")))
    func aMirrorThatLagsOrIsDownIsPassedOver() async throws {
        let start = UnixTime.now()
        try publish(5, signed: true, now: start)
        let lagging = hub.file("lagging")
        try FileManager.default.copyItem(atPath: hub.file("feed"), toPath: lagging)
        try publish(7, signed: true, now: start + 10)
        let mirror = try TestUpstream { request in
            guard let data = FileManager.default.contents(atPath: lagging + request.path) else { return .status(404) }
            return TestUpstream.Response(body: Array(data))
        }
        defer { mirror.stop() }
        _ = try await sync(key: true, now: start + 20)
        #expect(try count() == 7)
        let hubs = "http://127.0.0.1:1/, \(mirror.baseURL)/, \(server.baseURL)/"
        let text = "[fleet]\nhub = \(hubs)\nhub_key = \(try key("hub").public)\n[source.happiness]\nenabled = false\n"
            + "[source.breakingbad]\nenabled = false\n[source.upbit]\nenabled = false\n"
        let configuration = try Configuration.parse(text, file: "spoke.conf")
        try publish(8, signed: true, now: start + 30)
        let outcome = await FleetSync(engine: SyncEngine(storePath: spoke.file("q.db")), fleet: configuration.fleet!, configuration: configuration)
            .sync(only: nil, now: start + 40)
        #expect(outcome.reports.map(\.ok) == [true], "\(outcome.reports)")
        #expect(try count() == 8, "the down hub and the lagging mirror were passed over")
    }

    /// One budget: a source the spoke syncs but the hub does not publish is reported, never fetched
    /// from its own upstream (Upbit's URL here would be the public one).
    @Test func aSourceTheFeedDoesNotHoldIsReportedNotFetched() async throws {
        try publish(3)
        let outcome = try await sync(upbit: true)
        #expect(outcome.fed.contains("upbit"))
        let upbit = try #require(outcome.reports.first { $0.source == "upbit" })
        #expect(upbit.ok && upbit.notContacted && upbit.summary == "not in the hub's feed (it publishes custom.list): not synced", "\(upbit)")
        #expect(try count() == 3)
        // Named in the spoke's configuration, it fails so, and status shows it.
        let named = try await sync(extra: "[source.upbit]\ninterval = 1h\n", upbit: true)
        let failed = try #require(named.reports.first { $0.source == "upbit" })
        #expect(!failed.ok && failed.summary.hasPrefix("not in the hub's feed (it publishes custom.list); give [source.NAME] a url"), "\(failed)")
    }

    /// Downgrade: every request of an https hub's feed refuses plain http, the redirects it follows
    /// included (the client checks each hop); an http hub on the network is signed or refused.
    @Test func anHTTPSHubIsNeverFollowedToHTTP() throws {
        let text = "[fleet]\nhub = https://feed.example.org/\nhub_key = /etc/quoted/hub.pub\n"
        let configuration = try Configuration.parse(text, file: "spoke.conf")
        let fleet = FleetSync(engine: SyncEngine(storePath: spoke.file("q.db")), fleet: configuration.fleet!, configuration: configuration)
        #expect(fleet.settings(for: "upbit").allowHTTP == false)
        #expect(throws: HTTPFailure.self) { try HTTPClient.checkTarget("http://feed.example.org/manifest.json", allowHTTP: false) }
        #expect(throws: HTTPFailure.self) { try HTTPClient.checkTarget("http://127.0.0.1/manifest.json", allowHTTP: true, httpsOnly: true) }
        #expect(configuration.fleet?.isHTTPS == true)
        let plain = try Configuration.parse("[fleet]\nhub = http://feed.lan/\nhub_key = /k\n", file: "spoke.conf")
        #expect(FleetSync(engine: SyncEngine(storePath: spoke.file("q.db")), fleet: plain.fleet!, configuration: plain).settings(for: "upbit").allowHTTP)
    }

    /// A by-hash file is read at most to the size the signed manifest gives it.
    @Test func aFileLongerThanItsSignedSizeIsCutOffAndRefused() async throws {
        let manifest = try publish(4)
        let file = hub.file("feed/" + manifest.sources[0].file)
        try Data(repeating: 0x20, count: 50_000_000).write(to: URL(fileURLWithPath: file))
        let outcome = try await sync()
        #expect(outcome.reports.first?.ok == false, "\(outcome.reports)")
        // Known by the transfer's own kind (the cap was passed), said in the feed's words.
        #expect(outcome.reports.first?.summary.contains("is longer than the \(manifest.sources[0].size) bytes its signed manifest gives") == true,
                "\(outcome.reports)")
        let stored = FileManager.default.fileExists(atPath: spoke.file("q.db")) ? try count() : 0
        #expect(stored == 0)
    }

    @Test func theHubPublishesOnlyWhatItHasAndKeepsItsKeyToItself() throws {
        try publish(2)
        do {
            let store = try Store(path: hub.file("hub.db"), access: .write)
            try store.write { (transaction) throws(StoreError) in try transaction.quotes.ensureSource("custom.never", url: "https://e/n", now: 1) }
        }
        let manifest = try publish(2)
        #expect(manifest.sources.map(\.name) == ["custom.list"], "a source never synced and empty is not published")
        for name in ["manifest.json", "by-hash/" + manifest.sources[0].file.dropFirst("by-hash/".count)] {
            let mode = try FileManager.default.attributesOfItem(atPath: hub.file("feed/\(name)"))[.posixPermissions] as? Int
            #expect(mode == 0o644, "\(name)")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/signify-openbsd") else { return }
        let secret = try key("hub").secret
        chmod(secret, 0o640)
        var settings = PublishSettings(dir: hub.file("feed"), signingKey: secret)
        settings.name = "test-feed"
        #expect(throws: FeedFailure("signing_key: \(secret) may be read by others (mode 0640): chmod 0600 \(secret), owned by the user that publishes",
                                    isConfiguration: true)) {
            try Publisher(settings: settings, storePath: hub.file("hub.db"), retention: 3_600).publish()
        }
        chmod(secret, 0o600)
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
        #expect(outcome.reports.first?.summary.contains("older than one verified here") == true, "\(outcome.reports)")
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
        #expect(outcome.reports.first?.summary.contains("does not match the manifest's SHA-256; nothing applied") == true, "\(outcome.reports)")
        let stored = FileManager.default.fileExists(atPath: spoke.file("q.db")) ? try count() : 0
        #expect(stored == 0)
    }
}
