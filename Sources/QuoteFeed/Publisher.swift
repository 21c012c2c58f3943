import Glibc
import QuoteBase
import QuoteConfig
import QuoteModels
import QuoteStore
import QuoteSystem

/// The hub's side of a fleet: writes the store's sources into the feed folder.
///
/// Order, so that no reader ever sees a manifest naming a missing or partial file: every
/// `by-hash/SHA256.json` (and its `.json.gz` twin for nginx's gzip_static) is written to a
/// temporary name, fsync'd and renamed first; then the signature; the manifest last, by rename.
/// A file's name is its content's SHA-256, so a file once written never changes (nginx may
/// serve it as immutable) and an unchanged source costs nothing to publish again, once the file
/// there is checked to hold those bytes (`FeedFileCheck`: a link or a damaged copy is written
/// again). Files no manifest has named for two intervals are removed, and nothing else: only the
/// names the feed writes, in a `by-hash` that is its own folder, never a link. Two publishers (the
/// daemon's concurrent syncs) take turns on a lock file.
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

    /// The folder's lock file, locked (flock, exclusive): one publisher at a time. A link in its
    /// place is refused, not followed: the file would be made wherever it points.
    private static func lock(_ folder: String) throws(FeedFailure) -> FileDescriptor {
        let path = Path.join(folder, ".lock")
        do throws(Errno) {
            let lock = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NOCTTY, mode: 0o644)
            try lock.io.lockExclusively()
            return lock
        } catch where error.code == ELOOP {
            throw FeedFailure("cannot lock \(folder): \(path) is a symbolic link (the feed's lock is a file of its own: remove the link)")
        } catch {
            throw FeedFailure("cannot lock \(folder): \(error)")
        }
    }

    /// Publishes `only` these sources (nil: every one); the others keep their entries. `now` is
    /// the time of writing in seconds, `milliseconds` the clock the serial follows.
    public func publish(only: Set<String>? = nil, now: Int = UnixTime.now(),
                        milliseconds: Int = FeedSerial.now()) throws(FeedFailure) -> Outcome {
        let store: Store
        do {
            // What the hub synced, opened first: a file that holds no store yet is not made one,
            // and no feed folder is made to publish nothing.
            store = try Store(path: storePath, access: .read, creating: false)
        } catch {
            throw FeedFailure("store: \(error)")
        }
        let folder = settings.dir
        let byHash = Path.join(folder, "by-hash")
        try FeedFolder.make(folder, byHash)
        let secrets = try Self.signingKeys(settings.signingKeys)
        let nextKeys = try Self.publicKeys(settings.nextKeys, key: "next_keys")
        // Held until this function returns (the lock goes with its descriptor).
        let lock = try Self.lock(folder)
        defer { _ = lock.rawValue }
        try FeedFolder.refuseLink(byHash)

        let previous = Self.readManifest(in: folder)
        let serial = try SerialFile.next(after: previous, in: folder, now: now, milliseconds: milliseconds)
        let queries = store.feedQueries
        var entries: [Manifest.Entry] = []
        var written: [String] = []
        let sources: [FeedQueries.PublishedSource]
        do { sources = try queries.sources() } catch { throw FeedFailure("store: \(error)") }
        for source in sources {
            // Never synced and empty (a source that has failed since it was configured): not published,
            // or every spoke would refuse "an empty list" on every sync.
            if source.synced == nil, try rowsOf(source, queries) == 0 { continue }
            if let only, !only.contains(source.name), let kept = previous?.entry(named: source.name), Self.isIntact(kept, in: folder) {
                entries.append(kept)
                continue
            }
            guard let published = try write(source, queries: queries, into: byHash) else { continue }
            if published.wroteFiles || previous?.entry(named: source.name)?.sha256 != published.entry.sha256 { written.append(source.name) }
            entries.append(published.entry)
        }
        let manifest = Manifest(name: settings.name ?? Self.hostName(), serial: serial, generated: now,
                                validUntil: now + settings.validFor, nextKeys: nextKeys.map(\.base64), sources: entries)
        try writeManifest(manifest, signedWith: secrets, in: folder)
        let pruned = prune(byHash, keeping: Set(entries.map { String($0.file.dropFirst("by-hash/".count)) }), now: now)
        return Outcome(manifest: manifest, written: written, pruned: pruned)
    }

    /// One source's document, streamed through SHA-256 and gzip into `by-hash/`; whether a file
    /// was put in place (new bytes, or a file of their name that did not hold them).
    private func write(_ source: FeedQueries.PublishedSource, queries: FeedQueries,
                       into byHash: String) throws(FeedFailure) -> (entry: Manifest.Entry, wroteFiles: Bool)? {
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
        let path = Path.join(byHash, name)
        // The twin first: once the file is in place, nginx may send its twin.
        let wroteTwin = try place(compressed, as: name + ".gz", in: byHash,
                                  unlessThere: FeedFileCheck.inflates(path + ".gz", to: size, sha256: sha))
        let wroteFile = try place(plain, as: name, in: byHash, unlessThere: FeedFileCheck.holds(path, size: size, sha256: sha))
        let entry = Manifest.Entry(name: source.name, kind: source.kind, file: "by-hash/" + name, size: size, sha256: sha,
                                   rows: rows, synced: source.synced)
        return (entry, wroteTwin || wroteFile)
    }

    /// Renames `file` to `name`, unless the file there holds its bytes already: then nothing
    /// changes but its time (it was named again). Whether `file` was put in place.
    private func place(_ file: FeedFile, as name: String, in byHash: String, unlessThere intact: Bool) throws(FeedFailure) -> Bool {
        if intact {
            file.abandon()
            touch(Path.join(byHash, name))
            return false
        }
        try file.commit(as: name)
        return true
    }

    /// Whether a kept entry's file and twin still hold what it names; else the source is written
    /// again from the store.
    private static func isIntact(_ entry: Manifest.Entry, in folder: String) -> Bool {
        let path = Path.join(folder, entry.file)
        return FeedFileCheck.holds(path, size: entry.size, sha256: entry.sha256)
            && FeedFileCheck.inflates(path + ".gz", to: entry.size, sha256: entry.sha256)
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
                throw FeedFailure("signing_key: \(path) may be read by others (mode 0\(mode)): chmod 0600 \(path), owned by the user that publishes",
                                  isConfiguration: true)
            }
            do {
                keys.append(try Signify.secretKey(file: path))
            } catch {
                throw FeedFailure("signing_key: \(error.reason)", isConfiguration: true)
            }
        }
        return keys
    }

    static func publicKeys(_ paths: [String], key name: String) throws(FeedFailure) -> [Signify.PublicKey] {
        var keys: [Signify.PublicKey] = []
        for path in paths {
            do { keys.append(try Signify.publicKey(file: path)) } catch { throw FeedFailure("\(name): \(error.reason)", isConfiguration: true) }
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

    /// The serial's record (`SerialFile`), the signed manifests (one file per key: the signature
    /// and the manifest in one, so a spoke reading between two publishes gets one whole version),
    /// the detached signature people check with `signify -V`, then the manifest, each by rename
    /// with a new ETag (`commitWithANewETag`). Signed files of keys no longer signing go.
    private func writeManifest(_ manifest: Manifest, signedWith secrets: [Signify.SecretKey], in folder: String) throws(FeedFailure) {
        try? FileSystem.syncDirectory(Path.join(folder, "by-hash"))
        try SerialFile.write(manifest.serial, in: folder)
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
        try Self.commitWithANewETag(file, as: ManifestHeader.fileName, in: folder)
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
    /// for `retention` seconds goes, and so do temporary files a crash left behind. Only names
    /// the feed writes are looked at, each as itself (a link is never followed), and only while
    /// `by-hash` is still its own folder: whatever else is there stays.
    private func prune(_ byHash: String, keeping named: Set<String>, now: Int) -> Int {
        guard (try? FeedFolder.refuseLink(byHash)) != nil, let names = try? FileSystem.contentsOfDirectory(byHash) else { return 0 }
        var removed = 0
        for name in names {
            guard let base = Self.writtenName(name) else { continue }
            let path = Path.join(byHash, name)
            if named.contains(base) {
                touch(path)
                continue
            }
            guard let status = try? FileSystem.status(path, followingLinks: false),
                  now - status.modified > (name.hasPrefix(".") ? 3_600 : retention) else { continue }
            if (try? FileSystem.unlink(path)) != nil { removed += 1 }
        }
        return removed
    }

    /// The name the manifest gives a `by-hash` file (`SHA256.json`, for the file and its `.gz`
    /// twin), a temporary file's own name (`.json.PID.RANDOM.tmp`, `.gz.…`), or nil for a name
    /// the feed never writes.
    static func writtenName(_ name: String) -> String? {
        if name.hasPrefix(".json.") || name.hasPrefix(".gz."), name.hasSuffix(".tmp") { return name }
        let base = name.hasSuffix(".gz") ? String(name.dropLast(3)) : name
        guard base.hasSuffix(".json"), Hex.isDigest(String(base.dropLast(5))) else { return nil }
        return base
    }

    /// The file's times set to now; a link's own, should one be there (what it points to is not the feed's).
    private func touch(_ path: String) {
        try? FileSystem.touch(path, followingLinks: false)
    }

    static func readManifest(in folder: String) -> Manifest? {
        guard let bytes = ManifestHeader.bytes(inFolder: folder) else { return nil }
        return try? Manifest.parse(bytes)
    }
}
