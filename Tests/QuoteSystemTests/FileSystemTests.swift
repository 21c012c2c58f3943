import Foundation
import Glibc
import QuoteSystem
import Testing
import TestSupport

@Suite struct FileSystemTests {
    static func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    static func leftovers(_ folder: String) throws -> [String] {
        try FileSystem.contentsOfDirectory(folder).filter { $0.hasSuffix(".tmp") }
    }

    @Test func anAtomicFileReplacesTheContentWithItsMode() throws {
        let folder = TemporaryFolder()
        let target = folder.write("state", "old\n")
        let file = try AtomicFile(in: folder.path, prefix: "state", mode: 0o600)
        try file.write(Array("new ".utf8))
        try file.write(Array("content\n".utf8))
        #expect(Self.contents(target) == "old\n", "nothing changes before the commit")
        try file.commit(as: "state")
        #expect(Self.contents(target) == "new content\n")
        #expect(try FileSystem.status(target).permissions == 0o600)
        #expect(try Self.leftovers(folder.path).isEmpty)
    }

    /// 0666 would come out 0644 under the usual umask (022) if the umask played a part. (The
    /// umask itself is not changed here: it is the whole process's, and other tests make files.)
    @Test func theModeIsExactlyTheOneAsked() throws {
        let folder = TemporaryFolder()
        let file = try AtomicFile(in: folder.path, prefix: "feed", mode: 0o666)
        try file.write(Array("{}".utf8))
        try file.commit(as: "manifest.json", syncingFolder: false)
        #expect(try FileSystem.status(folder.file("manifest.json")).permissions == 0o666)
    }

    @Test func aFailedReplacementLeavesTheOldFile() throws {
        let folder = TemporaryFolder()
        // A folder with something in it cannot be renamed over: the commit fails at the rename.
        try FileSystem.makeDirectory(folder.file("taken"), mode: 0o755)
        folder.write("taken/inside", "kept\n")
        let file = try AtomicFile(in: folder.path, prefix: "taken", mode: 0o644)
        try file.write(Array("new\n".utf8))
        let failure = #expect(throws: FileSystemError.self) { try file.commit(as: "taken") }
        #expect(failure?.call == "rename" && failure?.path == folder.file("taken"))
        #expect(Self.contents(folder.file("taken/inside")) == "kept\n")
        #expect(try Self.leftovers(folder.path).isEmpty, "the temporary file is removed")

        // Abandoned: the old file stays, the temporary goes.
        let target = folder.write("state", "old\n")
        let abandoned = try AtomicFile(in: folder.path, prefix: "state", mode: 0o644)
        try abandoned.write(Array("half".utf8))
        abandoned.abandon()
        #expect(Self.contents(target) == "old\n")
        #expect(try Self.leftovers(folder.path).isEmpty)
    }

    @Test func aFileNeitherCommittedNorAbandonedIsRemovedWhenItGoes() throws {
        let folder = TemporaryFolder()
        do {
            let file = try AtomicFile(in: folder.path, prefix: "gone", mode: 0o644)
            try file.write(Array("x".utf8))
            #expect(try Self.leftovers(folder.path).count == 1)
        }
        #expect(try Self.leftovers(folder.path).isEmpty)
    }

    @Test func anAtomicFileInAMissingFolderFailsNamingItsPath() throws {
        let missing = TemporaryFolder().file("missing")
        let failure = #expect(throws: FileSystemError.self) { _ = try AtomicFile(in: missing, prefix: "x", mode: 0o644) }
        #expect(failure?.call == "open" && failure?.errno == .noSuchFile && failure?.path.hasPrefix(missing + "/.x.") == true)
    }

    @Test func unlinkOfAMissingFileNamesThePath() throws {
        let path = TemporaryFolder().file("absent")
        let failure = #expect(throws: FileSystemError.self) { try FileSystem.unlink(path) }
        #expect(failure?.errno == .noSuchFile && failure?.path == path)
        #expect(failure?.description == "unlink \(path): No such file or directory")
    }

    @Test func aListingHoldsEveryNameButTheDots() throws {
        let folder = TemporaryFolder()
        folder.write("a", "")
        folder.write(".hidden", "")
        try FileSystem.makeDirectory(folder.file("sub"), mode: 0o700)
        #expect(try FileSystem.contentsOfDirectory(folder.path).sorted() == [".hidden", "a", "sub"])
        #expect(throws: FileSystemError.self) { try FileSystem.contentsOfDirectory(folder.file("none")) }
    }

    @Test func statusSaysKindSizeModeAndTime() throws {
        let folder = TemporaryFolder()
        let file = folder.write("f", "12345")
        try FileSystem.setPermissions(file, 0o640)
        let status = try FileSystem.status(file)
        #expect(status.kind == .regular && status.size == 5 && status.permissions == 0o640)
        #expect(abs(status.modified - Int(Date().timeIntervalSince1970)) < 60)
        #expect(try FileSystem.status(folder.path).kind == .directory)

        try FileManager.default.createSymbolicLink(atPath: folder.file("link"), withDestinationPath: file)
        #expect(try FileSystem.status(folder.file("link")).kind == .regular, "followed")
        #expect(try FileSystem.status(folder.file("link"), followingLinks: false).kind == .symbolicLink)
        #expect(try FileSystem.readLink(folder.file("link")) == file)
        #expect(throws: FileSystemError.self) { try FileSystem.readLink(file) }
    }

    @Test func touchMovesTheModificationTime() throws {
        let folder = TemporaryFolder()
        let file = folder.write("f", "")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000)], ofItemAtPath: file)
        #expect(try FileSystem.status(file).modified == 1_000)
        try FileSystem.touch(file)
        #expect(try FileSystem.status(file).modified > 1_000)
    }

    @Test func makeDirectoriesMakesEveryMissingFolder() throws {
        let folder = TemporaryFolder()
        let deep = folder.file("a/b/c")
        try FileSystem.makeDirectories(deep, mode: 0o700)
        #expect(try FileSystem.status(deep).kind == .directory)
        try FileSystem.makeDirectories(deep, mode: 0o700)  // already there: fine
        folder.write("file", "")
        let failure = #expect(throws: FileSystemError.self) { try FileSystem.makeDirectories(folder.file("file/below"), mode: 0o700) }
        #expect(failure?.path == folder.file("file/below") && failure?.errno == Errno(ENOTDIR))
    }

    @Test func accessIsCheckedForThisUser() throws {
        let folder = TemporaryFolder()
        let file = folder.write("f", "")
        try FileSystem.setPermissions(file, 0o600)
        #expect(FileSystem.exists(file) && !FileSystem.exists(folder.file("none")))
        #expect(FileSystem.isAccessible(file, for: [.read, .write]))
        #expect(!FileSystem.isAccessible(file, for: .execute) || getuid() == 0)
        #expect(throws: FileSystemError.self) { try FileSystem.checkAccess(folder.file("none"), for: .read) }
    }

    @Test func aDescriptorsModificationTimeIsSet() throws {
        let folder = TemporaryFolder()
        let path = folder.write("f", "x")
        let file = try FileDescriptor.open(path, O_WRONLY)
        try file.io.setModificationTime(seconds: 2_000)
        #expect(FileStatus(try file.io.status()).modified == 2_000)
    }

    @Test func theProcessKnowsItself() {
        #expect(CurrentProcess.id == getpid())
        #expect(CurrentProcess.userID == getuid())
        #expect(CurrentProcess.executablePath()?.hasPrefix("/") == true)
        #expect(CurrentProcess.hostName()?.isEmpty == false)
    }
}
