import Foundation
@testable import QuoteFeed
import Testing
import TestSupport

/// A by-hash file and its twin hold what their name promises only when their bytes say so: the
/// file itself (no link, no FIFO), its size and SHA-256, and a twin that inflates to exactly it.
@Suite struct FeedFileCheckTests {
    let folder = TemporaryFolder("quoted-feedcheck")
    let bytes = Array(#"[{"id": 1, "text": "a"}]"#.utf8)

    func write(_ name: String, _ content: [UInt8]) throws -> String {
        let path = folder.file(name)
        try Data(content).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aFileHoldsItsBytesOnly() throws {
        let sha = try #require(FeedDigest.hex(bytes))
        let plain = try write("x.json", bytes)
        #expect(FeedFileCheck.holds(plain, size: bytes.count, sha256: sha))
        #expect(!FeedFileCheck.holds(plain, size: bytes.count + 1, sha256: sha))
        #expect(!FeedFileCheck.holds(plain, size: bytes.count, sha256: String(repeating: "0", count: 64)))
        #expect(!FeedFileCheck.holds(try write("y.json", bytes.reversed()), size: bytes.count, sha256: sha))
        #expect(!FeedFileCheck.holds(folder.file("missing.json"), size: bytes.count, sha256: sha))
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.json"), withDestinationPath: plain)
        #expect(!FeedFileCheck.holds(folder.file("link.json"), size: bytes.count, sha256: sha))
        #expect(mkfifo(folder.file("fifo.json"), 0o644) == 0)
        #expect(!FeedFileCheck.holds(folder.file("fifo.json"), size: bytes.count, sha256: sha), "refused without waiting for a writer")
    }

    /// A gzip made by hand (stored blocks, not zlib's) counts: any one member of the bytes does.
    @Test func aTwinInflatesToExactlyItsFile() throws {
        let sha = try #require(FeedDigest.hex(bytes))
        let twin = try write("x.json.gz", Compression.gzip(bytes))
        #expect(FeedFileCheck.inflates(twin, to: bytes.count, sha256: sha))
        #expect(!FeedFileCheck.inflates(twin, to: bytes.count - 1, sha256: sha))
        let damaged: [[UInt8]] = [
            Array(Compression.gzip(bytes).dropLast(4)), Compression.gzip(bytes) + [0], Compression.gzip(bytes) + Compression.gzip(bytes),
            Compression.gzip(Array(bytes.dropLast())), Compression.gzipBomb(inflatedBytes: 1 << 24), bytes, [],
        ]
        for (index, content) in damaged.enumerated() {
            #expect(!FeedFileCheck.inflates(try write("bad\(index).gz", content), to: bytes.count, sha256: sha), "\(index)")
        }
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.gz"), withDestinationPath: twin)
        #expect(!FeedFileCheck.inflates(folder.file("link.gz"), to: bytes.count, sha256: sha))
    }

    /// A twin that inflates to many times its size, fed in chunks, as the publisher writes one.
    @Test func aLargeTwinOfTheWritersOwnInflatesWhole() throws {
        let large = Array(String(repeating: "행복은 멀리 있지 않다. ", count: 40_000).utf8)
        let file = try FeedFile(folder: folder.path, prefix: "gz")
        let gzip = try GzipWriter(into: file)
        try large.withUnsafeBytes { chunk in try gzip.write(chunk) }
        try gzip.finish()
        try file.commit(as: "large.json.gz")
        let sha = try #require(FeedDigest.hex(large))
        #expect(FeedFileCheck.inflates(folder.file("large.json.gz"), to: large.count, sha256: sha))
        #expect(!FeedFileCheck.inflates(folder.file("large.json.gz"), to: large.count - 1, sha256: sha))
    }
}
