import Glibc
import QuoteBase
import QuoteConfig
import QuoteStore
import QuoteSystem

/// The hub's side of a fleet: writes the store's sources into the feed folder.
///
/// Order, so that no reader ever sees a manifest naming a missing or partial file: every
/// `by-hash/SHA256.json` (and its `.json.gz` twin for nginx's gzip_static) is written to a
/// temporary name, fsync'd and renamed first; then the signature; the manifest last, by rename.
/// A file's name is its content's SHA-256, so a file once written never changes (nginx may
/// serve it as immutable) and an unchanged source costs nothing to publish again. Files no
/// manifest has named for two intervals are removed. Two publishers (the daemon's concurrent
/// syncs) take turns on a lock file.
public struct Publisher {
    public let settings: PublishSettings
    public let storePath: String
    /// Files unnamed for this long are pruned: two of the longest source interval.
    public let retention: Int

    public init(settings: PublishSettings, storePath: String, retention: Int) {
        self.settings = settings
        self.storePath = storePath
        self.retention = retention
    }

    public struct Outcome: Sendable {
        public let manifest: Manifest
        /// Sources whose file was written anew.
        public let written: [String]
        public let pruned: Int
    }

    /// The folder's lock file, locked (flock, exclusive): one publisher at a time.
    private static func lock(_ folder: String) throws(FeedFailure) -> FileDescriptor {
        do throws(Errno) {
            let lock = try FileDescriptor.open(Path.join(folder, ".lock"), O_RDWR | O_CREAT, mode: 0o644)
            try lock.io.lockExclusively()
            return lock
        } catch {
            throw FeedFailure("cannot lock \(folder): \(error)")
        }
    }

    /// Publishes `only` these sources (nil: every one); the others keep their entries. `now` is
    /// the time of writing in seconds, `milliseconds` the clock the serial follows.
    public func publish(only: Set<String>? = nil, now: Int = UnixTime.now(),
                        milliseconds: Int = FeedSerial.now()) throws(FeedFailure) -> Outcome {
        let folder = settings.dir
        let byHash = Path.join(folder, "by-hash")
        for path in [folder, byHash] where !Path.exists(path) {
            do throws(FileSystemError) {
                try FileSystem.makeDirectory(path, mode: 0o755)
            } catch where error.errno.code != EEXIST {
                throw FeedFailure("cannot create \(path): \(error.errno)")
            } catch {}
            try? FileSystem.setPermissions(path, 0o755)  // whatever the umask: the web server reads it as another user
        }
        let secrets = try Self.signingKeys(settings.signingKeys)
        let nextKeys = try Self.publicKeys(settings.nextKeys, key: "next_keys")
        // Held until this function returns (the lock goes with its descriptor).
        let lock = try Self.lock(folder)
        defer { _ = lock.rawValue }

        let previous = Self.readManifest(in: folder)
        // A feed written "later" than now: this host's clock went back, and a serial from it could too.
        if let previous, previous.generated > now + 300 {
            throw FeedFailure("the manifest in \(folder) was written at \(UnixTime.timestamp(previous.generated)), after this host's clock (\(UnixTime.timestamp(now))): fix the clock before publishing")
        }
        // The serial never goes back, not even when the folder was lost: it is at least the time of
        // writing, by either reading of the clock.
        guard let serial = FeedSerial.next(after: previous?.serial, now: max(milliseconds, now * 1_000)) else {
            throw FeedFailure("the manifest in \(folder) holds serial \(previous?.serial ?? 0), which leaves no higher one to write: remove \(Path.join(folder, "manifest.json")) to start again at this host's clock")
        }
        let store: Store
        do {
            store = try Store(path: storePath, access: .read)
        } catch {
            throw FeedFailure("store: \(error)")
        }
        let queries = FeedQueries(database: store.database)
        var entries: [Manifest.Entry] = []
        var written: [String] = []
        let sources: [FeedQueries.PublishedSource]
        do { sources = try queries.sources() } catch { throw FeedFailure("store: \(error)") }
        for source in sources {
            // Never synced and empty (a source that has failed since it was configured): not published,
            // or every spoke would refuse "an empty list" on every sync.
            if source.synced == nil, try rowsOf(source, queries) == 0 { continue }
            if let only, !only.contains(source.name), let kept = previous?.entry(named: source.name),
               Path.exists(Path.join(folder, kept.file)) {
                entries.append(kept)
                continue
            }
            guard let entry = try write(source, queries: queries, into: byHash) else { continue }
            if previous?.entry(named: source.name)?.sha256 != entry.sha256 { written.append(source.name) }
            entries.append(entry)
        }
        let manifest = Manifest(name: settings.name ?? Self.hostName(), serial: serial, generated: now,
                                validUntil: now + settings.validFor, nextKeys: nextKeys.map(\.base64), sources: entries)
        try writeManifest(manifest, signedWith: secrets, in: folder)
        let pruned = prune(byHash, keeping: Set(entries.map { String($0.file.dropFirst("by-hash/".count)) }), now: now)
        return Outcome(manifest: manifest, written: written, pruned: pruned)
    }

    /// One source's document, streamed through SHA-256 and gzip into `by-hash/`.
    private func write(_ source: FeedQueries.PublishedSource, queries: FeedQueries, into byHash: String) throws(FeedFailure) -> Manifest.Entry? {
        let plain = try FeedFile(folder: byHash, prefix: "json")
        let compressed = try FeedFile(folder: byHash, prefix: "gz")
        let gzip = try GzipWriter(into: compressed)
        var digest = FeedDigest()
        var size = 0
        let rows = try queries.write(source: source, storeFailure: { FeedFailure("store: \($0)") }) { (text) throws(FeedFailure) in
            var text = text
            var failure: FeedFailure?
            text.withUTF8 { bytes in
                let raw = UnsafeRawBufferPointer(bytes)
                digest.update(raw)
                size += raw.count
                do throws(FeedFailure) {
                    try plain.write(raw)
                    try gzip.write(raw)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }
        guard let rows else { return nil }
        try gzip.finish()
        guard let sha = digest.finish() else {
            plain.abandon()
            compressed.abandon()
            throw FeedFailure("\(source.name): libcrypto could not compute SHA-256 (check OPENSSL_CONF)")
        }
        let name = "\(sha).json"
        if Path.exists(Path.join(byHash, name)) {
            plain.abandon()  // the same bytes are there already: nothing changes
            compressed.abandon()
            touch(Path.join(byHash, name))
            touch(Path.join(byHash, name + ".gz"))
        } else {
            try compressed.commit(as: name + ".gz")
            try plain.commit(as: name)
        }
        return Manifest.Entry(name: source.name, kind: source.kind, file: "by-hash/" + name, size: size, sha256: sha,
                              rows: rows, synced: source.synced)
    }

    /// Whether the feed in `folder` needs a fresh signature: none is there, or less than half of
    /// its validity is left (a sync that changed nothing re-signs it then).
    public static func isDueForResigning(_ settings: PublishSettings, now: Int = UnixTime.now()) -> Bool {
        guard let manifest = readManifest(in: settings.dir) else { return true }
        return manifest.validUntil - now < settings.validFor / 2
    }

    /// The signing keys, each readable by its owner alone (as ssh insists of a private key).
    static func signingKeys(_ paths: [String]) throws(FeedFailure) -> [Signify.SecretKey] {
        var keys: [Signify.SecretKey] = []
        for path in paths {
            if let status = try? FileSystem.status(path), status.permissions & 0o077 != 0 {
                let mode = String(status.permissions & 0o777, radix: 8)
                throw FeedFailure("signing_key: \(path) may be read by others (mode 0\(mode)): chmod 0600 \(path), owned by the user that publishes")
            }
            do {
                keys.append(try Signify.secretKey(file: path))
            } catch {
                throw FeedFailure("signing_key: \(error.reason)")
            }
        }
        return keys
    }

    static func publicKeys(_ paths: [String], key name: String) throws(FeedFailure) -> [Signify.PublicKey] {
        var keys: [Signify.PublicKey] = []
        for path in paths {
            do { keys.append(try Signify.publicKey(file: path)) } catch { throw FeedFailure("\(name): \(error.reason)") }
        }
        return keys
    }

    /// The feed's name when [publish] gives none: this host's.
    static func hostName() -> String {
        guard let name = CurrentProcess.hostName(), !name.isEmpty else { return "quoted" }
        return String(name.prefix(200))
    }

    private func rowsOf(_ source: FeedQueries.PublishedSource, _ queries: FeedQueries) throws(FeedFailure) -> Int {
        do { return try queries.rowCount(source: source) } catch { throw FeedFailure("store: \(error)") }
    }

    /// The signed manifests (one file per key: the signature and the manifest in one, so a spoke
    /// reading between two publishes gets one whole version), the detached signature people check
    /// with `signify -V`, then the manifest, each by rename with a new ETag (`commitWithANewETag`).
    /// Signed files of keys no longer signing go.
    private func writeManifest(_ manifest: Manifest, signedWith secrets: [Signify.SecretKey], in folder: String) throws(FeedFailure) {
        try? FileSystem.syncDirectory(Path.join(folder, "by-hash"))
        let bytes = Array(manifest.json.utf8)
        for secret in secrets {
            let signed = try FeedFile(folder: folder, prefix: "signed")
            try signed.write(Signify.embed(bytes, with: secret, comment: "signify -V -e -p hub.pub -x manifest.\(secret.number).signed -m -"))
            try Self.commitWithANewETag(signed, as: "manifest.\(secret.number).signed", in: folder)
        }
        Self.removeSignedFiles(in: folder, except: Set(secrets.map { "manifest.\($0.number).signed" }))
        if let secret = secrets.first {
            let signature = try FeedFile(folder: folder, prefix: "sig")
            try signature.write(Array(Signify.sign(bytes, with: secret, comment: "verify with the hub's public key").utf8))
            try signature.commit(as: "manifest.json.sig")
        }
        let file = try FeedFile(folder: folder, prefix: "manifest")
        try file.write(bytes)
        try Self.commitWithANewETag(file, as: "manifest.json", in: folder)
        try? FileSystem.syncDirectory(folder)
    }

    /// Renames `file` to `name`, its modification time moved one second past the file it replaces
    /// when they share a second: nginx's ETag for a static file is its modification time in whole
    /// seconds and its size, so a file replaced within the same second by one of the same length
    /// would keep its ETag, and a spoke asking "changed?" would hear "304".
    private static func commitWithANewETag(_ file: FeedFile, as name: String, in folder: String) throws(FeedFailure) {
        let old = try? FileSystem.status(Path.join(folder, name))
        try file.commit(as: name) { descriptor in
            guard let old, let new = try? FileStatus(descriptor.status()), new.modified <= old.modified else { return }
            // The access time stays; the modification time moves one second past the old one's.
            try? descriptor.setModificationTime(seconds: old.modified + 1)
        }
    }

    /// A key that no longer signs leaves no manifest behind that would stay valid until it expires.
    private static func removeSignedFiles(in folder: String, except kept: Set<String>) {
        guard let names = try? FileSystem.contentsOfDirectory(folder) else { return }
        for name in names where name.hasPrefix("manifest.") && name.hasSuffix(".signed") && !kept.contains(name) {
            try? FileSystem.unlink(Path.join(folder, name))
        }
    }

    /// A file a manifest names is touched (its time is when it was last named); one unnamed
    /// for `retention` seconds goes, and so do temporary files a crash left behind.
    private func prune(_ byHash: String, keeping named: Set<String>, now: Int) -> Int {
        guard let names = try? FileSystem.contentsOfDirectory(byHash) else { return 0 }
        var removed = 0
        for name in names {
            let path = Path.join(byHash, name)
            let base = name.hasSuffix(".gz") ? String(name.dropLast(3)) : name
            if named.contains(base) {
                touch(path)
                continue
            }
            guard let status = try? FileSystem.status(path), now - status.modified > (name.hasPrefix(".") ? 3_600 : retention) else { continue }
            if (try? FileSystem.unlink(path)) != nil { removed += 1 }
        }
        return removed
    }

    private func touch(_ path: String) {
        try? FileSystem.touch(path)
    }

    static func readManifest(in folder: String) -> Manifest? {
        guard let bytes = try? FileReader.read(Path.join(folder, "manifest.json"), limit: Manifest.maximumBytes) else { return nil }
        return try? Manifest.parse(bytes)
    }
}
