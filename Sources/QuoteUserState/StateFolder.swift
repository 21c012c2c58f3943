import Glibc
import QuoteBase
import QuoteSystem

/// Where this user's own state lives: $XDG_STATE_HOME/quoted (default ~/.local/state/quoted), a
/// 0700 folder of 0600 files, each read with a size cap: the kept lists replaced whole, the
/// histories grown by appended lines (`StateHistory`). Never the store: the store is the
/// daemon's, and read-only to its users.
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
        // Nothing there, not even a link to nothing: an empty state. Looked at first: a failed
        // read would word its error (strerror, the catalog) on every draw of a user with no such file.
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

    /// `lastLines`, and which file they came from (nil: none read).
    func lastLinesAndIdentity(_ name: String, limit: Int) -> (lines: [UInt8], identity: AppendFile.Identity?) {
        guard let read = try? AppendFile.lastLinesAndIdentity(of: file(name), limit: limit) else { return ([], nil) }
        return (read.lines, read.identity)
    }

    /// The last whole lines of `name`, at most `limit` bytes of them (a history's newest part:
    /// `AppendFile.lastLines`); none when there is no such file or it cannot be read.
    func lastLines(_ name: String, limit: Int) -> [UInt8] {
        (try? AppendFile.lastLines(of: file(name), limit: limit)) ?? []
    }

    /// Adds whole `lines` (each ending in its newline) to `name`, made 0600 (with the folder) when
    /// missing. What is there but cannot be added to (a link, a FIFO, a file this user may not
    /// open) is replaced, as a file written whole is, by one holding what could be read of it (its
    /// last `limit` bytes) and the lines: a history is started afresh rather than refused.
    func append(_ name: String, lines: [[UInt8]], limit: Int) throws(UserStateError) -> AppendFile.Appended {
        let path = file(name)
        do throws(FileSystemError) {
            return try AppendFile.append(lines: lines, to: path, mode: 0o600)
        } catch where error.errno == .noSuchFile {
            // The first line of all: the folder is made, then the file.
            if let problem = Path.makeDirectories(self.path) { throw UserStateError("\(path): \(problem)") }
        } catch where [ELOOP, EINVAL, EACCES, ENXIO].contains(error.errno.code) {
            try self.write(name, lastLines(name, limit: limit) + lines.joined(), durable: false)
            return AppendFile.Appended(size: 0)
        } catch {
            throw UserStateError(tr("\(path): cannot write it: \(error.errno)"))
        }
        do throws(FileSystemError) {
            return try AppendFile.append(lines: lines, to: path, mode: 0o600)
        } catch {
            throw UserStateError(tr("\(path): cannot write it: \(error.errno)"))
        }
    }

    /// Rewrites `name` short with what `rewrite` makes of its last lines (`AppendFile.compact`),
    /// when `needed` says so of its size; false when it was not (its lock held on past a moment,
    /// no file).
    func compact(_ name: String, limit: Int, expecting: AppendFile.Identity? = nil, needed: (Int) -> Bool = { _ in true },
                 rewrite: ([UInt8]) -> [UInt8]) -> Bool {
        (try? AppendFile.compact(name, in: path, mode: 0o600, limit: limit, expecting: expecting, needed: needed, rewrite: rewrite)) ?? false
    }
}
