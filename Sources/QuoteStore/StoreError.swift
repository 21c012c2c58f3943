/// Why the store could not be used, with a one-line message that names the file and
/// the sysexits.h code a command should exit with.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case missing(path: String, reason: String)
    case notADatabase(path: String)
    case foreignDatabase(path: String)
    case newerSchema(path: String, found: Int, supported: Int)
    case migrationChanged(path: String, names: [String])
    case migrationFailed(name: String, underlying: DatabaseError)
    case needsUpgrade(path: String, found: Int, supported: Int)
    case io(path: String, reason: String)

    /// Runs `body`, turning whatever it throws into a StoreError that names `path`.
    static func mapping<T>(path: String, databaseError: ((DatabaseError) -> StoreError)? = nil,
                           _ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw databaseError?(error) ?? StoreError(error, path: path)
        } catch {
            throw StoreError.io(path: path, reason: "\(error)")
        }
    }

    init(_ error: DatabaseError, path: String) {
        if error.isCorrupt {
            self = .notADatabase(path: path)
        } else {
            self = .io(path: path, reason: error.description)
        }
    }

    public var description: String {
        switch self {
        case .missing(let path, let reason):
            return "\(path): no store there and cannot create one (\(reason))"
        case .notADatabase(let path):
            return "\(path): not an SQLite database, or damaged; left untouched"
        case .foreignDatabase(let path):
            return "\(path): an SQLite database, but not a quoted store; left untouched"
        case .newerSchema(let path, let found, let supported):
            return "\(path): written by a newer quoted (schema \(found), this binary knows up to \(supported)); upgrade quoted"
        case .migrationChanged(let path, let names):
            return "\(path): migration \(names.joined(separator: ", ")) was changed after it was applied to this store"
        case .migrationFailed(let name, let underlying):
            return "migration \(name) failed: \(underlying.message)"
        case .needsUpgrade(let path, let found, let supported):
            return "\(path): schema \(found) needs upgrading to \(supported), but the store is read-only for this user"
        case .io(let path, let reason):
            return "\(path): \(reason)"
        }
    }

    /// sysexits.h: 66 EX_NOINPUT, 74 EX_IOERR.
    public var exitCode: Int32 {
        switch self {
        case .missing: return 66
        default: return 74
        }
    }
}
