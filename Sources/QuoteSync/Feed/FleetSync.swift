import QuoteBase
import QuoteConfig
import QuoteFeed
import QuoteScheduling
import QuoteStore

/// A spoke's sync: one conditional request for the hub's manifest (nginx answers 304 when
/// nothing changed: one request, nothing written), its signature checked when `hub_key` is
/// set, then every source it lists synced from its by-hash file — unless the configuration
/// gives that source a `url` of its own or turns it off. A manifest older than the one
/// applied is refused; a source missing from the manifest keeps its rows. The manifest's
/// ETag is kept only when every source it lists was applied, so a source that failed is
/// tried again next time even if the hub wrote nothing new.
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

    /// Syncs what the feed holds (`only`: those of these names), calling `finished` per source.
    public func sync(only: Set<String>?, now: Int = UnixTime.now(),
                     finished: @escaping @Sendable (SourceReport) -> Void = { _ in }) async -> Outcome {
        let hub = fleet.hub
        let store: Store
        do {
            store = try Store(path: engine.storePath, access: .write, now: now, busyTimeoutMilliseconds: engine.busyTimeoutMilliseconds)
        } catch {
            let report = SourceReport(source: "fleet", ok: false, summary: "store: \(error)", seconds: 0, storeExitCode: error.exitCode)
            return Outcome(reports: [report], fed: [])
        }
        let repository = FeedStateRepository(database: store.database)
        let stored = try? repository.state(hub: hub)
        let previouslyFed = ((try? repository.fedSources(manifestURL: fleet.manifestURL)) ?? []).map(\.name)

        // 1. The manifest, conditionally.
        let fetched: (manifest: Manifest, etag: String?, lastModified: String?)?
        do throws(SourceFailure) {
            fetched = try await fetchManifest(ifNoneMatch: stored?.etag)
        } catch {
            return await failEvery(expected(previouslyFed, only: only), with: error, now: now, finished: finished)
        }
        guard let fetched else {
            // 304: unchanged since the manifest applied last. One request, and nothing written but
            // when the hub was last heard: a thousand spokes polling an unchanged feed cost a
            // thousand 304s and no store work (each source's own state stays as its last change left it).
            try? repository.touch(hub: hub, at: now)
            var generator = SystemRandomNumberGenerator()
            let names = previouslyFed.filter { wanted($0, only: only) }
            let reports = names.map { name in
                SourceReport(source: name, ok: true, httpStatus: 304, summary: "not modified (feed unchanged)",
                             nextDue: Schedule().nextDue(afterSuccessOf: settings(for: name), at: now, using: &generator), seconds: 0)
            }
            reports.forEach(finished)
            return Outcome(reports: reports, fed: Set(names))
        }
        let manifest = fetched.manifest
        if let stored, manifest.serial < stored.serial {
            let failure = SourceFailure("feed: the hub's manifest (serial \(manifest.serial)) is older than the one applied here (\(stored.serial)); not applied")
            return await failEvery(expected(previouslyFed, only: only), with: failure, now: now, finished: finished)
        }

        // 2. Each source it lists, from its file.
        let entries = manifest.sources.filter { wanted($0.name, only: only) }
        var reports: [SourceReport] = []
        for entry in entries {
            let report = await engine.sync(settings(for: entry.name), now: now, checkpoint: false) { _, context throws(SourceFailure) in
                try await FeedSource.update(entry, fleet: fleet, context)
            }
            finished(report)
            reports.append(report)
        }
        if reports.contains(where: \.ok) { store.database.checkpointAndTruncate() }
        // 3. The manifest counts as applied only when all of it was.
        if reports.allSatisfy(\.ok) && only == nil {
            try? repository.record(hub: hub, FeedStateRepository.State(
                etag: fetched.etag, lastModified: fetched.lastModified, serial: manifest.serial,
                generated: manifest.generated, checkedAt: now))
        }
        return Outcome(reports: reports, fed: Set(entries.map(\.name)))
    }

    /// The sources a feed that could not be read would have answered for: those it answered for
    /// last time and every configured one without a url of its own. They report the feed's
    /// failure rather than go to their upstreams (a thousand spokes would be a thousand hosts on Upbit).
    func expected(_ previouslyFed: [String], only: Set<String>?) -> [String] {
        let configured = configuration.enabledSources.filter { !$0.urlIsOwn }.map(\.name)
        return Array(Set(previouslyFed + configured)).sorted().filter { wanted($0, only: only) }
    }

    private func failEvery(_ names: [String], with failure: SourceFailure, now: Int,
                           finished: @escaping @Sendable (SourceReport) -> Void) async -> Outcome {
        await each(names, now: now, finished: finished) { _, _ throws(SourceFailure) in throw failure }
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
        guard let configured = configuration.source(named: name) else { return true }
        return configured.enabled && !configured.urlIsOwn
    }

    /// The settings a fed source syncs with: its own (interval, allow_shrink) where configured,
    /// the feed's URL and limits.
    func settings(for name: String) -> SourceSettings {
        var settings = configuration.source(named: name)
            ?? SourceSettings(name: name, kind: SourceName.kind(of: name) ?? .custom, enabled: true, url: "", interval: 3_600)
        settings.url = fleet.manifestURL
        settings.timeout = fleet.timeout
        settings.maxBytes = fleet.maxBytes
        settings.allowHTTP = true
        return settings
    }

    /// The manifest, or nil when the hub says it is unchanged (304). With `hub_key`, its signature must verify.
    func fetchManifest(ifNoneMatch etag: String?) async throws(SourceFailure) -> (manifest: Manifest, etag: String?, lastModified: String?)? {
        var request = HTTPRequest(url: fleet.manifestURL, timeout: fleet.timeout, maxBytes: Manifest.maximumBytes, allowHTTP: true)
        if let etag { request.headers["If-None-Match"] = etag }
        let response: HTTPResponse
        do {
            response = try await engine.client.send(request)
        } catch {
            throw SourceFailure("feed: \(error)")
        }
        if response.status == 304 { return nil }
        guard response.status == 200 else { throw SourceFailure("feed: manifest.json: HTTP \(response.status)", httpStatus: response.status) }
        if let keyPath = fleet.hubKey {
            try await verify(response.body, keyPath: keyPath)
        }
        do {
            let manifest = try Manifest.parse(response.body)
            return (manifest, response.header("etag"), response.header("last-modified"))
        } catch {
            throw SourceFailure("feed: \(error)")
        }
    }

    private func verify(_ manifest: [UInt8], keyPath: String) async throws(SourceFailure) {
        let key: Signify.PublicKey
        do {
            key = try Signify.publicKey(file: keyPath)
        } catch {
            throw SourceFailure("feed: hub_key \(error.reason)", isConfiguration: true)
        }
        let response: HTTPResponse
        do {
            response = try await engine.client.send(HTTPRequest(url: fleet.manifestURL + ".sig", timeout: fleet.timeout,
                                                                maxBytes: 4_096, allowHTTP: true))
        } catch {
            throw SourceFailure("feed: manifest.json.sig: \(error)")
        }
        guard response.status == 200 else { throw SourceFailure("feed: signature does not verify (manifest.json.sig: HTTP \(response.status))") }
        do {
            try Signify.verify(manifest, signatureFile: String(decoding: response.body, as: UTF8.self), key: key)
        } catch {
            throw SourceFailure("feed: signature does not verify (\(error.reason))")
        }
    }
}
