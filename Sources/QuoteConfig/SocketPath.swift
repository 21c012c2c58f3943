import QuoteSystem

/// What may stand where the control socket goes.
public enum SocketPath {
    /// Nil when `path` is free or holds a socket (stale or live); otherwise why the
    /// daemon must not listen there. lstat, so a symbolic link is never followed.
    public static func problem(_ path: String) -> String? {
        guard let status = try? FileSystem.status(path, followingLinks: false) else { return nil }
        if status.kind == .socket { return nil }
        let what = status.kind == .directory ? "a folder" : status.kind == .symbolicLink ? "a symbolic link" : "a file"
        return "socket path \(path) is \(what), not a socket: refusing to replace it (choose another [daemon] socket)"
    }
}
