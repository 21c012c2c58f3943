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
        access(path, F_OK) == 0
    }

    /// Like `mkdir -p` (mode 0700 for folders it makes: a store is personal data).
    /// Returns nil on success, else the reason.
    public static func makeDirectories(_ path: String) -> String? {
        if path.isEmpty || exists(path) { return nil }
        if let problem = makeDirectories(parent(of: path)) { return problem }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            return "cannot create folder \(path): \(Errno.current)"
        }
        return nil
    }

    /// Nil when this user may write `path` (a folder: create files in it); otherwise
    /// a reason naming it: "folder /srv is read-only" or "/x/q.db is not writable by this user".
    public static func writableProblem(_ path: String) -> String? {
        guard exists(path) else { return nil }
        if access(path, W_OK) == 0 { return nil }
        let reason = errno == EROFS ? "is on a read-only file system" : "is not writable by this user"
        var status = stat()
        let isFolder = stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
        return (isFolder ? "folder " : "") + path + " " + reason
    }
}
