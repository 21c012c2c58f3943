import Glibc

/// What may stand where the control socket goes.
public enum SocketPath {
    /// Nil when `path` is free or holds a socket (stale or live); otherwise why the
    /// daemon must not listen there. lstat, so a symbolic link is never followed.
    public static func problem(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        if status.st_mode & S_IFMT == S_IFSOCK { return nil }
        let what = status.st_mode & S_IFMT == S_IFDIR ? "a folder" : status.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "a file"
        return "socket path \(path) is \(what), not a socket: refusing to replace it (choose another [daemon] socket)"
    }
}
