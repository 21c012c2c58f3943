import Glibc
import QuoteSystem
import Testing
import TestSupport

/// A spool is a file with no name: what was appended reads back whole, in chunks of any size,
/// and nothing of it is ever seen in its folder, before or after.
@Suite struct SpoolFileTests {
    struct Stop: Error {}

    static func readAll(_ spool: SpoolFile, chunkSize: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try spool.readBack(chunkSize: chunkSize) { (chunk: UnsafeRawBufferPointer) throws(Stop) in bytes += chunk }
        return bytes
    }

    @Test func whatWasAppendedReadsBackWholeInChunksOfAnySize() throws {
        let folder = TemporaryFolder()
        let spool = try SpoolFile.create(in: folder.path)
        let pieces: [[UInt8]] = [Array("[{\"id\": 1, ".utf8), [], Array(repeating: 0x61, count: 200_000), Array("}]".utf8)]
        for piece in pieces { try piece.withUnsafeBytes { try spool.append($0) } }
        let whole = pieces.flatMap { $0 }
        for size in [1, 7, 4096, 1 << 16, 1 << 20] {
            #expect(try Self.readAll(spool, chunkSize: size) == whole, "chunks of \(size)")
        }
        #expect(try FileSystem.contentsOfDirectory(folder.path).isEmpty, "the spool has no name in its folder")
    }

    @Test func anEmptySpoolReadsNothing() throws {
        let folder = TemporaryFolder()
        let spool = try SpoolFile.create(in: folder.path)
        var calls = 0
        let read = try spool.readBack { (_: UnsafeRawBufferPointer) throws(Stop) in calls += 1 }
        #expect(read == 0 && calls == 0)
    }

    @Test func theReadersThrowEndsTheReading() throws {
        let folder = TemporaryFolder()
        let spool = try SpoolFile.create(in: folder.path)
        try Array(repeating: UInt8(1), count: 10_000).withUnsafeBytes { try spool.append($0) }
        var calls = 0
        #expect {
            try spool.readBack(chunkSize: 100) { (_: UnsafeRawBufferPointer) throws(Stop) in
                calls += 1
                if calls == 3 { throw Stop() }
            }
        } throws: { error in
            guard case SpoolFailure<Stop>.handling = error else { return false }
            return true
        }
        #expect(calls == 3)
    }

    @Test func aMissingFolderIsItsErrno() {
        let folder = TemporaryFolder()
        let missing = folder.file("gone")
        #expect(throws: Errno(ENOENT)) { try SpoolFile.create(in: missing) }
    }

    @Test func aRegularFileIsNoFolder() {
        let folder = TemporaryFolder()
        let file = folder.write("plain", "x")
        #expect(throws: Errno(ENOTDIR)) { try SpoolFile.create(in: file) }
    }
}
