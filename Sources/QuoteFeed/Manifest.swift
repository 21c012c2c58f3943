import QuoteModels
import QuoteText

/// The feed's table of contents, `manifest.json`: the feed's name, each source with the
/// content-addressed file holding all of its data, that file's size and SHA-256, its row count
/// and when the hub last synced it, until when the manifest is valid, and the keys that will sign
/// the next ones. `serial` grows with every manifest the hub writes, across lost folders too (it
/// is never less than the time it was written, in milliseconds: `FeedSerial`): a spoke never
/// applies one older than it holds.
public struct Manifest: Equatable, Sendable {
    public static let maximumBytes = ManifestHeader.maximumBytes
    static let times = ManifestHeader.times
    static let largestSerial = ManifestHeader.largestSerial

    public struct Entry: Equatable, Sendable {
        public var name: String
        public var kind: String
        /// Relative to the feed folder: `by-hash/SHA256.json`.
        public var file: String
        public var size: Int
        public var sha256: String
        public var rows: Int
        public var synced: Int?

        public init(name: String, kind: String, file: String, size: Int, sha256: String, rows: Int, synced: Int?) {
            self.name = name
            self.kind = kind
            self.file = file
            self.size = size
            self.sha256 = sha256
            self.rows = rows
            self.synced = synced
        }
    }

    public var name: String
    /// The milliseconds since 1970 when it was written, or more (`FeedSerial`); seconds from an older hub.
    public var serial: Int
    /// Unix seconds: when the hub wrote it.
    public var generated: Int
    /// Unix seconds after which no spoke applies it: a frozen mirror or a replay ends there.
    public var validUntil: Int
    /// Public keys (signify's base64 line) that will sign later manifests: spokes adopt them.
    public var nextKeys: [String]
    public var sources: [Entry]

    public init(name: String, serial: Int, generated: Int, validUntil: Int, nextKeys: [String] = [], sources: [Entry]) {
        self.name = name
        self.serial = serial
        self.generated = generated
        self.validUntil = validUntil
        self.nextKeys = nextKeys
        self.sources = sources
    }

    public func entry(named name: String) -> Entry? { sources.first { $0.name == name } }

    /// Its head: what a hub's metrics read of it.
    public var header: ManifestHeader {
        ManifestHeader(name: name, serial: serial, generated: generated, validUntil: validUntil)
    }

    public var json: String {
        var object = JSONObjectBuilder()
        header.write(to: &object)
        object.addRaw("next_keys", json: "[" + nextKeys.map { "\"\($0)\"" }.joined(separator: ", ") + "]")
        let entries = sources.map { entry in
            var source = JSONObjectBuilder()
            source.add("name", entry.name)
            source.add("kind", entry.kind)
            source.add("file", entry.file)
            source.add("size", entry.size)
            source.add("sha256", entry.sha256)
            source.add("rows", entry.rows)
            source.add("synced", entry.synced)
            return source.result
        }
        object.addRaw("sources", json: "[\n" + entries.joined(separator: ",\n") + "\n]")
        return object.result + "\n"
    }

    /// Reads a manifest, refusing anything that could lead a spoke astray: an unknown format,
    /// a file name outside `by-hash/`, a size or digest that is not one, a name that is no source's.
    /// Its head is read by `ManifestHeader`, the one reader of it.
    public static func parse(_ bytes: [UInt8]) throws(FeedFailure) -> Manifest {
        let parsed: ManifestHeader.Parsed
        do {
            parsed = try ManifestHeader.parse(bytes)
        } catch {
            throw FeedFailure(error.reason)
        }
        let (header, document) = (parsed.header, parsed.document)
        guard let keyList = document["next_keys"]?.array, keyList.count <= 8 else {
            throw FeedFailure("the manifest's next_keys is not a list of at most 8 keys")
        }
        var nextKeys: [String] = []
        for key in keyList {
            guard let text = key.string, Signify.PublicKey(base64: text) != nil else { throw FeedFailure("the manifest's next_keys holds something that is not a signify public key") }
            nextKeys.append(text)
        }
        var entries: [Entry] = []
        for (index, value) in parsed.sources.enumerated() {
            guard let name = value["name"]?.string, let kind = SourceName.kind(of: name), kind != .builtin,
                  value["kind"]?.string == kind.rawValue,
                  let file = value["file"]?.string, let sha = value["sha256"]?.string, Hex.isDigest(sha),
                  file == "by-hash/\(sha).json",
                  let size = value["size"]?.int, size >= 0, let rows = value["rows"]?.int, rows >= 0,
                  value["synced"]?.int.map(Self.times.contains) ?? true else {
                throw FeedFailure("the manifest's source \(index + 1) is malformed")
            }
            if entries.contains(where: { $0.name == name }) { throw FeedFailure("the manifest names \(name) twice") }
            entries.append(Entry(name: name, kind: kind.rawValue, file: file, size: size, sha256: sha, rows: rows,
                                 synced: value["synced"]?.int))
        }
        return Manifest(name: header.name, serial: header.serial, generated: header.generated, validUntil: header.validUntil,
                        nextKeys: nextKeys, sources: entries)
    }
}

extension ManifestHeader.Refusal {
    /// What a spoke's sync log and the hub's journal say of it.
    var reason: String {
        switch self {
        case .tooLarge: return "the manifest is larger than 1 MiB"
        case .ambiguous(let error): return "the manifest is ambiguous: \(error)"
        case .notJSON(let error): return "the manifest is not JSON: \(error)"
        case .unknownFormat(let found):
            return "the manifest's format is \(found.map { "\($0.kindName)" } ?? "missing"), not \(ManifestHeader.format)"
        case .missingOrOutOfRange: return "the manifest lacks serial, generated, valid_until or sources, or holds one out of range"
        case .badName: return "the manifest names no feed (name), or not as printable text of at most \(ManifestHeader.longestName) bytes"
        }
    }
}
