import Glibc
import QuoteSystem

/// The few path operations quoted needs, without Foundation.
public enum Path {
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public static func join(_ base: String, _ name: String) -> String {
        base.hasSuffix("/") ? base + name : base + "/" + name
    }

    public static func exists(_ path: String) -> Bool {
        FileSystem.exists(path)
    }

    /// Like `mkdir -p` (mode 0700 for folders it makes: a store is personal data).
    /// Returns nil on success, else the reason.
    public static func makeDirectories(_ path: String) -> String? {
        do throws(FileSystemError) {
            try FileSystem.makeDirectories(path, mode: 0o700)
            return nil
        } catch {
            return tr("cannot create folder \(error.path): \(error.errno)")
        }
    }

    /// Nil when this user may write `path` (a folder: create files in it); otherwise
    /// a reason naming it: "folder /srv is read-only" or "/x/q.db is not writable by this user".
    public static func writableProblem(_ path: String) -> String? {
        guard exists(path) else { return nil }
        let denied: FileSystemError
        do throws(FileSystemError) { try FileSystem.checkAccess(path, for: .write); return nil } catch { denied = error }
        let isFolder = (try? FileSystem.status(path))?.kind == .directory
        switch (denied.errno.code == EROFS, isFolder) {
        case (true, true): return tr("folder \(path) is on a read-only file system")
        case (true, false): return tr("\(path) is on a read-only file system")
        case (false, true): return tr("folder \(path) is not writable by this user")
        case (false, false): return tr("\(path) is not writable by this user")
        }
    }
}
