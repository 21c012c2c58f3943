import CSQLite
import QuoteBase
/// Why the store could not be used, with a one-line message that names the file and
/// the sysexits.h code a command should exit with.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case missing(path: String, reason: String)
    /// A file where the store should be that holds none (0 bytes, or SQLite with no schema), met
    /// by a caller that may not make one there.
    case noStore(path: String)
    case notADatabase(path: String)
    /// An SQLite file of ours that is visibly damaged (cut short).
    case damaged(path: String, reason: String)
    case foreignDatabase(path: String)
    case newerSchema(path: String, found: Int, supported: Int)
    case migrationChanged(path: String, names: [String])
    case migrationFailed(name: String, underlying: DatabaseError)
    case needsUpgrade(path: String, found: Int, supported: Int)
    /// The store exists but this user cannot write it (or its folder), and writing was needed.
    case readOnly(path: String, reason: String)
    /// No store, and none can be made there (the folder is read-only).
    case cannotCreate(path: String, reason: String)
    /// Another process holds the write lock for longer than the busy timeout.
    case busy(path: String)
    /// Another process's turn to write this store outlasted the wait (`WriterTurn`): who it is.
    case anotherWriter(path: String, holder: String)
    /// The disk (or the quota) is full: nothing was written.
    case full(path: String)
    case io(path: String, reason: String)
    /// Any other failed statement: SQLite's error, kept whole so that a caller can match its
    /// result code (`resultCode`).
    case database(path: String, DatabaseError)
    /// A name that is not a source's (a caller's mistake, not SQLite's).
    case invalidSourceName(String)

    /// The one place a database failure becomes a store failure (and so an exit code).
    init(_ error: DatabaseError, path: String) {
        switch error.resultCode {
        case .corrupt: self = .notADatabase(path: path)
        case .busy: self = .busy(path: path)
        case .full: self = .full(path: path)
        case .readOnly: self = .readOnly(path: path, reason: Path.writableProblem(path) ?? "read-only")
        default: self = .database(path: path, error)
        }
    }

    /// SQLite's verdict, when this failure is SQLite's: what callers match (`.constraint`,
    /// `.interrupted`, `.busy`), as they would on the `DatabaseError` itself.
    public var resultCode: DatabaseError.ResultCode? {
        switch self {
        case .busy: return .busy
        case .full: return .full
        default: return databaseError?.resultCode
        }
    }

    /// SQLite's own error, when this failure carries it (its message, its extended code).
    public var databaseError: DatabaseError? {
        switch self {
        case .database(_, let error), .migrationFailed(_, let error): return error
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .missing(let path, let reason):
            return tr("\(path): no store there and cannot create one (\(reason))")
        case .noStore(let path):
            return tr("\(path): holds no quoted store (an empty file, or SQLite with no tables); left untouched (quotectl import or quoted sync make one)")
        case .notADatabase(let path):
            return tr("\(path): not an SQLite database, or damaged; left untouched")
        case .damaged(let path, let reason):
            return tr("\(path): the store is damaged (\(reason)); left untouched")
        case .foreignDatabase(let path):
            return tr("\(path): an SQLite database, but not a quoted store; left untouched")
        case .newerSchema(let path, let found, let supported):
            return tr("\(path): written by a newer quoted (schema \(found), this binary knows up to \(supported)); upgrade quoted")
        case .migrationChanged(let path, let names):
            return tr("\(path): migration \(names.joined(separator: ", ")) was changed after it was applied to this store")
        case .migrationFailed(let name, let underlying):
            return tr("migration \(name) failed: \(underlying.message)")
        case .needsUpgrade(let path, let found, let supported):
            return tr("\(path): schema \(found) needs upgrading to \(supported), but the store is read-only for this user")
        case .readOnly(let path, let reason):
            return tr("\(path): the store is read-only here (\(reason))")
        case .cannotCreate(let path, let reason):
            return tr("\(path): cannot create the store: \(reason)")
        case .busy(let path):
            return tr("\(path): the store is busy (another process holds its write lock); try again")
        case .anotherWriter(let path, let holder):
            return tr("\(path): another sync or writer of this store is running (\(holder)); try again when it is done")
        case .full(let path):
            return tr("\(path): disk full; nothing was written")
        case .io(let path, let reason):
            return "\(path): \(reason)"
        case .database(let path, let error):
            return "\(path): \(error)"
        case .invalidSourceName(let name):
            return tr("not a source name: \(name)")
        }
    }

    /// A verdict on the file itself (not SQLite, not ours, damaged): one that a writer at work
    /// on it may have made for a moment.
    var judgesTheFile: Bool {
        switch self {
        case .notADatabase, .foreignDatabase, .damaged, .noStore: return true
        default: return false
        }
    }

    /// sysexits.h: 66 EX_NOINPUT, 73 EX_CANTCREAT, 75 EX_TEMPFAIL (busy: try again), 74 EX_IOERR (the rest,
    /// read-only and disk full included).
    public var exitCode: ExitCode {
        switch self {
        case .missing, .noStore: return .noInput
        case .cannotCreate: return .cannotCreate
        case .busy, .anotherWriter: return .temporaryFailure
        default: return .ioError
        }
    }
}
