import QuoteBase
import QuoteSystem

/// Where this user's own state lives: $XDG_STATE_HOME/quoted (default ~/.local/state/quoted), a
/// 0700 folder of 0600 files, each replaced whole and read with a size cap. Never the store: the
/// store is the daemon's, and read-only to its users.
public struct StateFolder: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The folder from the environment.
    public static func current() -> StateFolder {
        StateFolder(path: Path.join(Environment.absolutePath("XDG_STATE_HOME") ?? Path.join(Environment.home(), ".local/state"), "quoted"))
    }

    public func file(_ name: String) -> String { Path.join(path, name) }

    /// What reading a state file found.
    public enum Contents {
        /// No file yet: an empty state.
        case absent
        case bytes([UInt8])
        /// There, but not readable within the cap (too large, not a regular file, an I/O error).
        case unreadable(UserStateError)
    }

    public func read(_ name: String, limit: Int) -> Contents {
        let path = file(name)
        guard FileSystem.exists(path) || (try? FileSystem.status(path, followingLinks: false)) != nil else { return .absent }
        do throws(FileError) {
            return .bytes(try FileReader.read(path, limit: limit))
        } catch {
            return .unreadable(UserStateError("\(error)"))
        }
    }

    /// Held while a command reads, changes and writes the liked or hidden list: two commands at
    /// once (a bar's click and a terminal) each keep their change. Waits at most `patience`.
    public func lock(patience: Duration = .seconds(2)) throws(UserStateError) -> ProcessLock {
        let path = file("lock")
        if let problem = Path.makeDirectories(self.path) { throw UserStateError("\(path): \(problem)") }
        do throws(ProcessLock.Failure) {
            return try ProcessLock.take(path, creating: .init(mode: 0o600), patience: patience)
        } catch {
            switch error {
            case .heldBy(let pid):
                throw UserStateError(tr("\(path): still held by process \(pid) after \(patience)"), exitCode: .temporaryFailure)
            case .cannotOpen(let errno):
                throw UserStateError(tr("\(path): cannot open it: \(errno)"))
            }
        }
    }

    /// Replaces `name` whole (0600; never half a file). `durable`: synced to disk before the
    /// rename (the liked list); a history the next quote rewrites anyway is not.
    public func write(_ name: String, _ bytes: [UInt8], durable: Bool) throws(UserStateError) {
        if let problem = Path.makeDirectories(path) { throw UserStateError("\(file(name)): \(problem)") }
        do throws(FileSystemError) {
            let written = try AtomicFile(in: path, prefix: name, mode: 0o600)
            do throws(FileSystemError) {
                try written.write(bytes)
            } catch {
                written.abandon()
                throw error
            }
            try written.commit(as: name, syncingFolder: durable, syncingFile: durable)
        } catch {
            throw UserStateError(tr("\(file(name)): cannot write it: \(error.errno)"))
        }
    }
}
