import Foundation
import Glibc
import QuoteSystem
import Testing
import TestSupport

/// inotify as a follower uses it: events of a watched folder, read without blocking.
@Suite struct InotifyTests {
    @Test func aFoldersChangesArriveByName() throws {
        let folder = TemporaryFolder()
        let inotify = try Inotify()
        try inotify.watch(folder: folder.path, for: [.modified, .created, .deleted, .movedHere])
        #expect(try inotify.drain().isEmpty, "nothing happened yet, and drain does not block")
        folder.write("store.db-wal", "written")
        try FileSystem.rename(folder.write("new", "x"), to: folder.file("store.db"))
        try FileSystem.unlink(folder.file("store.db"))
        #expect(try Poll.wait(for: Int16(POLLIN), on: inotify.io, timeout: .seconds(5)))
        let events = try inotify.drain()
        #expect(events.contains { $0.name == "store.db-wal" && $0.changes.contains(.created) })
        #expect(events.contains { $0.name == "store.db-wal" && $0.changes.contains(.modified) })
        #expect(events.contains { $0.name == "store.db" && $0.changes.contains(.movedHere) })
        #expect(events.contains { $0.name == "store.db" && $0.changes.contains(.deleted) })
    }

    @Test func aMissingFolderNamesItself() throws {
        let inotify = try Inotify()
        let error = #expect(throws: FileSystemError.self) { try inotify.watch(folder: "/nonexistent/quoted", for: .modified) }
        #expect(error?.path == "/nonexistent/quoted")
    }
}
