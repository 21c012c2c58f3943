import QuoteBase
import QuoteConfig
import QuoteFeed
import QuoteScheduling
import QuoteModels
import QuoteStore
import QuoteText

/// A spoke's sync: one conditional request for the hub's signed manifest — one file per key,
/// signature and manifest in one (`manifest.KEYNUMBER.signed`), so a publish between two requests
/// cannot split them — then every source it lists synced from its by-hash file, unless the
/// configuration gives that source a `url` of its own or turns it off. What it trusts fails
/// closed: the manifest must be signed by a configured key or one the feed announced, name the
/// feed this spoke follows, be valid now and be no older than the newest verified here; a store
/// that cannot say what it trusts syncs nothing. A source the feed does not hold is reported, not
/// fetched from its upstream (a thousand spokes would be a thousand hosts on it). The ETag is kept
/// only when every source applied, so a failed source is tried again even if the hub wrote nothing new.
public struct FleetSync: Sendable {
    public let engine: SyncEngine
    public let fleet: FleetSettings
    public let configuration: Configuration

    public init(engine: SyncEngine, fleet: FleetSettings, configuration: Configuration) {
        self.engine = engine
        self.fleet = fleet
        self.configuration = configuration
    }

    public struct Outcome: Sendable {
        public var reports: [SourceReport]
        /// The sources the feed answered for (the rest sync from their upstreams).
        public var fed: Set<String>
    }

    /// A verified manifest, or the server's word that the one fetched last is unchanged.
    enum Fetched {
        case unchanged(url: String)
        case manifest(Manifest, url: String, etag: String?, lastModified: String?)
    }

    /// What this spoke trusts of the feed, read before anything is fetched.
    struct Trusted {
        var previouslyFed: [String]
        /// The feed followed: `[fleet] name`, else the one verified last.
        var pinned: String?
        var trust: FeedTrust?
        var adopted: [String]
    }

    /// A manifest verified and taken, from the hub or a mirror.
    struct Chosen {
        var manifest: Manifest
        var mirror: FleetSettings
        var url: String
        var etag: String?
        var lastModified: String?
    }

    /// What asking the hub and its mirrors came to.
    enum Choice {
        /// A 304 for a manifest applied earlier that is still valid.
        case unchanged(FeedTrust)
        case manifest(Chosen)
        /// Every address failed, lagged, was frozen or was another feed: the last reason.
        case refused(SourceFailure)
    }

    /// Syncs what the feed holds (`only`: those of these names), calling `finished` per source.
    public func sync(only: Set<String>?, now: Int = UnixTime.now(),
                     finished: @escaping @Sendable (SourceReport) -> Void = { _ in }) async -> Outcome {
        let store: Store
        do {
            // The writer's turn per transaction, as each source's sync takes it: the manifest's
            // request and the sources' transfers hold none.
            store = try Store(path: engine.storePath, access: .write, now: now, busyTimeoutMilliseconds: engine.busyTimeoutMilliseconds,
                              turn: .perTransaction)
        } catch {
            let report = SourceReport(source: "fleet", ok: false, summary: "store: \(error)", seconds: 0, storeExitCode: error.exitCode)
            return Outcome(reports: [report], fed: [])
        }
        let validators = store.feedState
        let trustRepository = store.feedTrust
        // What this spoke trusts, or nothing is synced: a store error never means "accept anything".
        let trusted: Trusted
        do throws(StoreError) {
            trusted = try readTrust(validators, trustRepository)
        } catch {
            return await failEvery(expected([], only: only), with: SourceFailure.local(error), now: now, finished: finished)
        }
        let expectedNames = expected(trusted.previouslyFed, only: only)
        let keys: [Signify.PublicKey]
        do throws(SourceFailure) {
            keys = try hubKeys() + trusted.adopted.compactMap { Signify.PublicKey(base64: $0) }
        } catch {
            return await failEvery(expectedNames, with: error, now: now, finished: finished)
        }
        // 1. The manifest, conditionally, checked.
        let chosen: Chosen
        switch await choose(keys: keys, trusted: trusted, validators: validators, now: now) {
        case .refused(let failure):
            return await failEvery(expectedNames, with: failure, now: now, finished: finished)
        case .unchanged(let trust):
            do throws(StoreError) {
                try store.write { (transaction) throws(StoreError) in try transaction.feedTrust.touch(name: trust.name, at: now) }
            } catch {
                return await failEvery(expectedNames, with: SourceFailure.local(error), now: now, finished: finished)
            }
            return await unchanged(trusted.previouslyFed, expected: expectedNames, only: only, now: now, finished: finished)
        case .manifest(let taken):
            chosen = taken
        }
        let manifest = chosen.manifest
        if let failure = trust(manifest, adoptingKeys: !keys.isEmpty, in: store, now: now) {
            return await failEvery(expectedNames, with: failure, now: now, finished: finished)
        }
        // 2. Each source it lists, from its file; 3. each it does not, reported.
        let entries = manifest.sources.filter { wanted($0.name, only: only) }
        var reports = await apply(entries, of: chosen, now: now, finished: finished)
        reports += await notInFeed(expectedNames, published: manifest.sources.map(\.name), now: now, finished: finished)
        if reports.contains(where: \.ok) { store.checkpointAndTruncate() }
        // 4. The manifest counts as applied only when all of it was.
        if reports.allSatisfy(\.ok) && only == nil, let failed = recordApplied(chosen, in: store, now: now) {
            reports.append(failed)
        }
        return Outcome(reports: reports, fed: Set(expectedNames + entries.map(\.name)))
    }

    /// The floor moves with the verified manifest, whatever its sources do next: its serial and
    /// validity are recorded, and (when keys are configured) the keys it announces adopted.
    private func trust(_ manifest: Manifest, adoptingKeys: Bool, in store: Store, now: Int) -> SourceFailure? {
        do throws(StoreError) {
            try store.write { (transaction) throws(StoreError) in
                let trustRepository = transaction.feedTrust
                try trustRepository.record(FeedTrust(name: manifest.name, serial: manifest.serial, generated: manifest.generated,
                                                     validUntil: manifest.validUntil, checkedAt: now))
                if adoptingKeys { try trustRepository.adopt(keys: manifest.nextKeys, name: manifest.name, serial: manifest.serial) }
            }
            return nil
        } catch {
            return SourceFailure.local(error)
        }
    }

    /// Keeps the manifest's validators, so that the next request is conditional; the report of
    /// a store that refused, or nil.
    private func recordApplied(_ chosen: Chosen, in store: Store, now: Int) -> SourceReport? {
        do throws(StoreError) {
            try store.write { (transaction) throws(StoreError) in
                try transaction.feedState.record(hub: chosen.url, FeedStateRepository.State(
                    etag: chosen.etag, lastModified: chosen.lastModified, serial: chosen.manifest.serial,
                    generated: chosen.manifest.generated, checkedAt: now))
            }
            return nil
        } catch {
            return SourceReport(source: "fleet", ok: false, summary: "store: \(error)", seconds: 0, storeExitCode: error.exitCode)
        }
    }

    private func readTrust(_ validators: FeedStateRepository, _ repository: FeedTrustRepository) throws(StoreError) -> Trusted {
        let previouslyFed = try validators.fedSources(manifestURL: fleet.manifestURL).map(\.name)
        let latest = try repository.feeds().first?.name
        let pinned = fleet.name ?? latest
        let trust = try pinned.flatMap { name throws(StoreError) in try repository.trust(name: name) }
        let adopted = try pinned.map { name throws(StoreError) in try repository.adoptedKeys(name: name) } ?? []
        return Trusted(previouslyFed: previouslyFed, pinned: pinned, trust: trust, adopted: adopted)
    }

    /// The hub, else each mirror in turn: one that fails, lags (an older serial), is frozen
    /// (expired, or a 304 for a manifest that has expired since) or serves another feed is passed over.
    private func choose(keys: [Signify.PublicKey], trusted: Trusted, validators: FeedStateRepository, now: Int) async -> Choice {
        var failure = SourceFailure("feed: no hub to ask")
        for address in [fleet.hub] + fleet.mirrors {
            let mirror = fleet.reading(from: address)
            let fetched: Fetched
            do throws(SourceFailure) {
                fetched = try await fetchManifest(from: mirror, keys: keys, etag: { url in try? validators.state(hub: url)?.etag })
            } catch {
                failure = error
                continue
            }
            switch fetched {
            case .unchanged:
                // Unchanged since the manifest applied last — which proves nothing about today: a
                // frozen mirror answers so forever. Valid still: one request and no store work.
                guard let trust = trusted.trust else {
                    failure = SourceFailure("feed: the server answers 'unchanged' for a manifest this spoke never verified")
                    continue
                }
                guard now <= trust.validUntil else {
                    failure = Self.expired(trust.validUntil, now: now, unchanged: true)
                    continue
                }
                return .unchanged(trust)
            case .manifest(let manifest, let url, let etag, let lastModified):
                if let refusal = refusal(of: manifest, pinned: trusted.pinned, trust: trusted.trust, now: now) {
                    failure = refusal
                    continue
                }
                return .manifest(Chosen(manifest: manifest, mirror: mirror, url: url, etag: etag, lastModified: lastModified))
            }
        }
        return .refused(failure)
    }

    /// A 304 for a manifest still valid: each source the feed gave last time is as current as the
    /// hub's, so each records a success that writes no row (its last success moves on, as a 304
    /// from an upstream's own server moves it: a quiet feed is not a stale one).
    private func unchanged(_ previouslyFed: [String], expected: [String], only: Set<String>?, now: Int,
                           finished: @escaping @Sendable (SourceReport) -> Void) async -> Outcome {
        var reports: [SourceReport] = []
        for name in previouslyFed where wanted(name, only: only) {
            let report = await engine.sync(settings(for: name), now: now, checkpoint: false) { _, _ throws(SourceFailure) in
                SourceUpdate.unchanged(what: "feed unchanged", validators: [], status: 304)
            }
            finished(report)
            reports.append(report)
        }
        reports += await notInFeed(expected, published: previouslyFed, now: now, finished: finished)
        return Outcome(reports: reports, fed: Set(expected))
    }

    /// Each of `entries` synced from its file, one after the other.
    private func apply(_ entries: [Manifest.Entry], of chosen: Chosen, now: Int,
                       finished: @escaping @Sendable (SourceReport) -> Void) async -> [SourceReport] {
        var reports: [SourceReport] = []
        for entry in entries {
            let (manifest, mirror, fleet) = (chosen.manifest, chosen.mirror, self.fleet)
            let report = await engine.sync(settings(for: entry.name), now: now, checkpoint: false) { _, context throws(SourceFailure) in
                try await FeedSource.update(entry, of: manifest, fleet: fleet, from: mirror, context)
            }
            finished(report)
            reports.append(report)
        }
        return reports
    }

    /// The sources of `expected` the feed does not hold (it publishes `published`). One this
    /// spoke's configuration names fails so (status shows it); one it has only by default follows
    /// the feed: not synced, said, no failure — a hub that does not publish Breaking Bad must not
    /// make every spoke fail until each is edited. Neither is fetched from its upstream.
    private func notInFeed(_ expected: [String], published: [String], now: Int,
                           finished: @escaping @Sendable (SourceReport) -> Void) async -> [SourceReport] {
        let missing = expected.filter { !published.contains($0) }
        guard !missing.isEmpty else { return [] }
        let because = "not in the hub's feed (it publishes " + (published.isEmpty ? "nothing" : published.sorted().joined(separator: ", ")) + ")"
        let named = missing.filter(scope.names)
        var reports: [SourceReport] = []
        if !named.isEmpty {
            let failure = SourceFailure(because + "; give [source.NAME] a url of its own to sync it from its upstream, or enabled = false")
            reports += await failEvery(named, with: failure, now: now, finished: finished).reports
        }
        for name in missing where !named.contains(name) {
            var report = SourceReport(source: name, ok: true, summary: because + ": not synced", seconds: 0)
            report.notContacted = true
            finished(report)
            reports.append(report)
        }
        return reports
    }

    /// Why a verified manifest is not applied: another feed's, expired, or older than one verified here.
    func refusal(of manifest: Manifest, pinned: String?, trust: FeedTrust?, now: Int) -> SourceFailure? {
        if let pinned, manifest.name != pinned {
            return SourceFailure("feed: the manifest is of the feed '\(TerminalSanitizer.clean(manifest.name))', not '\(TerminalSanitizer.clean(pinned))' which this spoke follows; "
                                 + "not applied (set [fleet] name = \(TerminalSanitizer.clean(manifest.name)) to follow that feed instead)")
        }
        if now > manifest.validUntil { return Self.expired(manifest.validUntil, now: now, unchanged: false) }
        if let trust, FeedSerial.isOlder(manifest.serial, than: trust.serial) {
            return SourceFailure("feed: the hub's manifest (serial \(manifest.serial)) is older than one verified here (\(trust.serial)); "
                                 + "not applied (a mirror that lags, or a replay)")
        }
        return nil
    }

    /// "feed: the hub's manifest expired 3 days ago (valid until …); a mirror may be stale or frozen".
    static func expired(_ validUntil: Int, now: Int, unchanged: Bool) -> SourceFailure {
        let what = unchanged ? "the manifest applied here expired" : "the hub's manifest expired"
        let tail = unchanged ? ", and the server still answers 'unchanged'" : ""
        return SourceFailure("feed: \(what) \(UnixTime.relative(validUntil, now: now)) (valid until \(UnixTime.timestamp(validUntil)))\(tail); "
                             + "a mirror may be stale or frozen, or this host's clock is wrong")
    }

    /// The sources a feed that could not be read would have answered for: those it answered for
    /// last time and every configured one without a url of its own. They report the feed's
    /// failure rather than go to their upstreams (a thousand spokes would be a thousand hosts on Upbit).
    func expected(_ previouslyFed: [String], only: Set<String>?) -> [String] {
        scope.sources(fed: previouslyFed).map(\.name).filter { wanted($0, only: only) }
    }

    /// Fails `names` with `failure`, each recorded; with no name to fail, the feed itself reports it
    /// (a spoke whose store was wiped must not take a refused feed for "nothing to do").
    private func failEvery(_ names: [String], with failure: SourceFailure, now: Int,
                           finished: @escaping @Sendable (SourceReport) -> Void) async -> Outcome {
        guard !names.isEmpty else {
            let report = SourceReport(source: "fleet", ok: false, httpStatus: failure.httpStatus, summary: failure.message, seconds: 0,
                                      isConfigurationProblem: failure.isConfiguration, storeExitCode: failure.storeExitCode)
            finished(report)
            return Outcome(reports: [report], fed: [])
        }
        return await each(names, now: now, finished: finished) { _, _ throws(SourceFailure) in throw failure }
    }

    /// Runs `adapter` for each of `names` through the engine, one after the other.
    private func each(_ names: [String], now: Int, finished: @escaping @Sendable (SourceReport) -> Void,
                      adapter: @escaping SyncEngine.Adapter) async -> Outcome {
        var reports: [SourceReport] = []
        for name in names {
            let report = await engine.sync(settings(for: name), now: now, checkpoint: false, from: adapter)
            finished(report)
            reports.append(report)
        }
        return Outcome(reports: reports, fed: Set(names))
    }

    /// Whether the feed answers for `name`: not when the configuration gives it a url of its
    /// own or turns it off, and, with `only`, just for the names asked for.
    func wanted(_ name: String, only: Set<String>?) -> Bool {
        if let only, !only.contains(name) { return false }
        return scope.answers(for: name)
    }

    /// Which sources the feed answers for, and with what settings: the rule the health reading counts by too.
    var scope: FleetScope { FleetScope(configuration) }

    /// The settings a fed source syncs with: its own (interval, allow_shrink) where configured,
    /// the feed's URL and limits.
    func settings(for name: String) -> SourceSettings {
        var settings = scope.settings(for: name)
        settings.url = fleet.manifestURL
        settings.timeout = fleet.timeout
        settings.maxBytes = fleet.maxBytes
        settings.allowHTTP = !fleet.isHTTPS
        return settings
    }

    /// The configured hub keys, read.
    func hubKeys() throws(SourceFailure) -> [Signify.PublicKey] {
        var keys: [Signify.PublicKey] = []
        for path in fleet.hubKeys {
            do { keys.append(try Signify.publicKey(file: path)) } catch {
                throw SourceFailure("feed: hub_key \(error.reason)", isConfiguration: true)
            }
        }
        return keys
    }

    /// The manifest signed by the first of `keys` the hub still signs with (the unsigned
    /// manifest.json when there are none: a loopback hub), verified; or the server's 304.
    func fetchManifest(from mirror: FleetSettings, keys: [Signify.PublicKey], etag: (String) -> String?) async throws(SourceFailure) -> Fetched {
        guard !keys.isEmpty else {
            let url = mirror.manifestURL
            let response = try await get(url, etag: etag(url), maxBytes: Manifest.maximumBytes)
            if response.status == 304 { return .unchanged(url: url) }
            guard response.status == 200 else { throw SourceFailure("feed: manifest.json: HTTP \(response.status)", httpStatus: response.status) }
            return .manifest(try parse(response.body), url: url, etag: response.header("etag"), lastModified: response.header("last-modified"))
        }
        var tried: [String] = []
        var seen = Set<String>()
        for key in keys where seen.insert(key.number).inserted {
            let url = mirror.signedManifestURL(keyNumber: key.number)
            let response = try await get(url, etag: etag(url), maxBytes: Manifest.maximumBytes + 4_096)
            if response.status == 404 {
                tried.append(key.number)
                continue
            }
            if response.status == 304 { return .unchanged(url: url) }
            guard response.status == 200 else {
                throw SourceFailure("feed: manifest.\(key.number).signed: HTTP \(response.status)", httpStatus: response.status)
            }
            let message: [UInt8]
            do {
                message = try Signify.open(embedded: response.body, keys: keys)
            } catch {
                throw SourceFailure("feed: signature does not verify (manifest.\(key.number).signed: \(error.reason))")
            }
            return .manifest(try parse(message), url: url, etag: response.header("etag"), lastModified: response.header("last-modified"))
        }
        throw SourceFailure("feed: no manifest signed by a key this spoke trusts (key " + tried.joined(separator: ", key ")
                            + ": HTTP 404): the hub signs with another key now; add its public key to hub_key in [fleet]")
    }

    private func get(_ url: String, etag: String?, maxBytes: Int) async throws(SourceFailure) -> HTTPResponse {
        var request = HTTPRequest(url: url, timeout: fleet.timeout, maxBytes: maxBytes, allowHTTP: !fleet.isHTTPS)
        request.httpsOnly = fleet.isHTTPS
        request.caFile = fleet.caFile
        if let etag { request.headers["If-None-Match"] = etag }
        do {
            return try await engine.client.send(request)
        } catch {
            throw SourceFailure(error, message: "feed: \(error)")
        }
    }

    private func parse(_ bytes: [UInt8]) throws(SourceFailure) -> Manifest {
        do {
            return try Manifest.parse(bytes)
        } catch {
            throw SourceFailure("feed: \(error)")
        }
    }
}
