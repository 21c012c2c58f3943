import QuoteText
import Glibc
import QuoteBase
import QuoteSystem
import Synchronization

/// Writers of one store take turns: a process that writes the store holds a lock on
/// `STORE-lock` while it does, waiting at most `patience` for another process's turn to end. A
/// sync takes it around each write transaction only (`Store.Turn.perTransaction`: from BEGIN
/// IMMEDIATE to COMMIT or ROLLBACK, and a checkpoint that finds it free; never while it waits on
/// the network: a list's body is spooled beside the store first); an import, a forget and the daemon's own records
/// hold it while they have the store open (`Store.Turn.whileOpen`); a reader that must create or
/// migrate the store holds it while it does. SQLite's own write lock still guards each
/// transaction; this one spans what SQLite cannot see — creating the file and its schema — waits
/// longer than SQLite's busy timeout would (a big list's merge commits after seconds), and it
/// can say who holds it. Readers never take it.
public enum WriterTurn {
    /// The lock file beside the store.
    public static func lockPath(of store: String) -> String { store + "-lock" }

    /// How long a writer waits for another process's turn before giving up (exit 75, naming it):
    /// longer than the biggest first sync takes, ten million quotes (docs/benchmarks.md).
    public static let defaultPatience = Duration.seconds(120)

    private static let settings = Mutex<(patience: Duration, waiting: (@Sendable (String) -> Void)?)>((defaultPatience, nil))

    /// A program's choice, made once at its start: how long to wait, and what to say (one line, once
    /// per wait) when another process's turn makes this one wait.
    public static func configure(patience: Duration = defaultPatience, waiting: (@Sendable (String) -> Void)?) {
        settings.withLock { $0 = (patience, waiting) }
    }

    /// What a writer says (one line, once per wait) when another process's turn makes it wait.
    public typealias Note = @Sendable (String) -> Void

    /// This process's turn to write `store`, for as long as the returned lock lives; `waiting` is
    /// said instead of `configure`'s (a command run in-process says it where its run writes).
    static func take(_ store: String, patience chosen: Duration? = nil, waiting note: Note? = nil) throws(StoreError) -> ProcessLock {
        let (configured, configuredWaiting) = settings.withLock { $0 }
        let waiting = note ?? configuredWaiting
        let patience = chosen ?? configured
        let lock = lockPath(of: store)
        do {
            return try ProcessLock.take(lock, creating: creation(for: store), patience: patience) { pid in
                waiting?(tr("waiting for \(describe(pid)), which is writing \(store)"))
            }
        } catch {
            switch error {
            case .heldBy(let pid):
                throw StoreError.anotherWriter(path: store, holder: describe(pid))
            case .cannotOpen(let errno):
                if errno.code == EACCES || errno.code == EROFS || errno.code == EPERM {
                    throw StoreError.readOnly(path: store, reason: Path.writableProblem(Path.parent(of: store)) ?? "\(lock): \(errno)")
                }
                throw StoreError.io(path: store, reason: "\(lock): \(errno)")
            }
        }
    }

    /// When another quoted process holds the turn of `store`, waits for it to end (at most the
    /// patience) and answers true; false at once when no quoted writer has ever had the store (no
    /// lock file: nothing is created beside a file that may not be ours).
    static func awaitOtherWriter(_ store: String, waiting: Note? = nil) -> Bool {
        guard Path.exists(lockPath(of: store)), let turn = try? take(store, waiting: waiting) else { return false }
        withExtendedLifetime(turn) {}
        return true
    }

    /// "pid 4242 (quoted)", or "another process" when the kernel would not say.
    private static func describe(_ pid: Int32) -> String {
        guard pid > 0 else { return tr("another process") }
        return "pid \(pid)" + (ProcessLock.processName(pid).map { " (\(TerminalSanitizer.clean($0)))" } ?? "")
    }

    /// The lock file gets the store's permissions, and its owner when root makes it (as SQLite
    /// does for -wal and -shm), so that the store's owner can take it after root did.
    private static func creation(for store: String) -> ProcessLock.Creation {
        guard let status = try? FileSystem.status(store) else { return ProcessLock.Creation(mode: 0o644) }
        return ProcessLock.Creation(mode: status.permissions & 0o666,
                                    owner: CurrentProcess.effectiveUserID == 0 ? (status.owner, status.group) : nil)
    }
}
