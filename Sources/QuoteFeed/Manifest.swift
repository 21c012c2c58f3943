import QuoteStore

/// The feed's table of contents, `manifest.json`: each source with the content-addressed file
/// holding all of its data, that file's size and SHA-256, its row count and when the hub last
/// synced it. `serial` grows with every manifest the hub writes: a spoke never applies one
/// older than what it holds.
public struct Manifest: Equatable, Sendable {
    public static let format = 1
    /// The times a manifest may name: 1970 to the end of 9999 (the hub's word, never trusted further).
    static let times = 0...253_402_300_799
    /// A manifest is small; anything bigger is not one.
    public static let maximumBytes = 1 << 20

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

    public var serial: Int
    public var generated: Int
    public var sources: [Entry]

    public init(serial: Int, generated: Int, sources: [Entry]) {
        self.serial = serial
        self.generated = generated
        self.sources = sources
    }

    public func entry(named name: String) -> Entry? { sources.first { $0.name == name } }

    public var json: String {
        var object = JSONObjectBuilder()
        object.add("format", Self.format)
        object.add("serial", serial)
        object.add("generated", generated)
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
    public static func parse(_ bytes: [UInt8]) throws(FeedFailure) -> Manifest {
        guard bytes.count <= maximumBytes else { throw FeedFailure("the manifest is larger than 1 MiB") }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw FeedFailure("the manifest is not JSON: \(error)")
        }
        guard document["format"]?.int == format else {
            throw FeedFailure("the manifest's format is \(document["format"].map { "\($0.kindName)" } ?? "missing"), not \(format)")
        }
        guard let serial = document["serial"]?.int, (0..<Int.max).contains(serial), let generated = document["generated"]?.int,
              Self.times.contains(generated), let list = document["sources"]?.array else {
            throw FeedFailure("the manifest lacks serial, generated or sources, or holds one out of range")
        }
        var entries: [Entry] = []
        for (index, value) in list.enumerated() {
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
        return Manifest(serial: serial, generated: generated, sources: entries)
    }
}
