import QuoteBase
import QuoteStore
import QuoteSystem

/// Tells a follower when another process committed to its store, without looking at the store
/// again and again: inotify on the store's folder wakes it when the store or its WAL is written,
/// and SQLite's `data_version` confirms a commit (a write inside a transaction is none). A big
/// sync writes the WAL thousands of times: after a wake the watch leaves inotify unread for
/// `settle`, so a follower wakes a few times a second while a writer writes, and prints once per
/// commit it sees.
final class StoreWatch {
    /// The store was removed or replaced under the follower: its connection reads a file that is gone.
    struct StoreGone: Error {
        let message: String
    }

    let path: String
    private let store: Store
    private let inotify: Inotify
    /// The store's file name in its folder.
    private let base: String
    /// The files whose writes may be a commit: the store, its WAL, its rollback journal.
    private let names: Set<String>
    private let identity: (device: UInt64, inode: UInt64)
    private var version: Int
    /// The connection sees other processes' commits (`data_version`); false: an immutable look,
    /// renewed when the store's own file was written (`Store.lookAgain`).
    private let seesCommits: Bool
    /// A write was seen and is not confirmed yet; inotify is left unread until `quietUntil`.
    private var pending = false
    private var quietUntil: Duration?
    /// inotify watches the folder (false: the folder could not be watched, and only the interval prints).
    private let watching: Bool
    static let settle = Duration.milliseconds(250)

    init(store: Store) throws {
        path = store.path
        self.store = store
        seesCommits = try store.seeOtherWriters()
        base = path.split(separator: "/").last.map(String.init) ?? path
        names = [base, base + "-wal", base + "-journal"]
        inotify = try Inotify()
        do {
            try inotify.watch(folder: Path.parent(of: path),
                              for: [.modified, .closedAfterWriting, .created, .deleted, .movedAway, .movedHere, .folderGone])
            watching = true
        } catch {
            // A folder this user may search but not list (inotify needs read access): follow by the interval alone.
            Output.error(tr("cannot watch \(error.path) (\(error.errno)): another process's commit shows at the next --every"))
            watching = false
        }
        let status = try FileSystem.status(path)
        identity = (status.device, status.inode)
        version = seesCommits ? try store.version.current() : 0
    }

    /// inotify's descriptor when the follower should wait on it now (nil while settling).
    func descriptor(now: Duration) -> Descriptor? {
        if !watching { return nil }
        if let quietUntil, now < quietUntil { return nil }
        return inotify.io
    }

    /// When the follower must wake: the settle's end (to confirm a write, and to listen again).
    var confirmationDue: Duration? { quietUntil }

    /// Reads what inotify queued (any file of the folder: SQLite's -shm, other programs' files)
    /// and leaves inotify unread for `settle`, so a folder written thousands of times a second
    /// wakes the follower a few times a second. A write to the store's files is confirmed once
    /// settled; the store removed, replaced or its folder gone throws `StoreGone`.
    func readEvents(now: Duration) throws {
        let events = try inotify.drain()
        for event in events {
            if event.changes.contains(.overflowed) { pending = true }  // events were lost: a commit may be among them
            if !event.changes.isDisjoint(with: [.folderGone, .watchEnded, .overflowed]) { try checkIdentity() }
            guard names.contains(event.name) else { continue }
            // An immutable look reads the store's file alone: its WAL's writes show once copied back.
            if !seesCommits, event.name != base { continue }
            pending = true
            if event.name == base, !event.changes.isDisjoint(with: [.created, .deleted, .movedAway, .movedHere]) {
                try checkIdentity()
            }
        }
        if quietUntil == nil { quietUntil = now + Self.settle }
    }

    /// Once settled: whether another process committed since the last look.
    func committed(now: Duration) throws -> Bool {
        guard let quietUntil, now >= quietUntil else { return false }
        self.quietUntil = nil
        guard pending else { return false }
        pending = false
        try checkIdentity()
        guard seesCommits else {
            try store.lookAgain()
            return true
        }
        let current = try store.version.current()
        defer { version = current }
        return current != version
    }

    /// The file at the store's path is still the one the connection reads.
    func checkIdentity() throws {
        guard let status = try? FileSystem.status(path) else {
            throw StoreGone(message: tr("the store at \(path) was removed while following it"))
        }
        guard status.device == identity.device, status.inode == identity.inode else {
            throw StoreGone(message: tr("the store at \(path) was replaced by another file while following it"))
        }
    }
}
