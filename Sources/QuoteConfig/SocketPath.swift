import QuoteBase
import QuoteSystem

/// What may stand where the control socket goes.
public enum SocketPath {
    /// Nil when `path` is free or holds a socket (stale or live); otherwise why the
    /// daemon must not listen there. lstat, so a symbolic link is never followed.
    public static func problem(_ path: String) -> String? {
        guard let status = try? FileSystem.status(path, followingLinks: false) else { return nil }
        if status.kind == .socket { return nil }
        switch status.kind {
        case .directory: return tr("socket path \(path) is a folder, not a socket: refusing to replace it (choose another [daemon] socket)")
        case .symbolicLink: return tr("socket path \(path) is a symbolic link, not a socket: refusing to replace it (choose another [daemon] socket)")
        default: return tr("socket path \(path) is a file, not a socket: refusing to replace it (choose another [daemon] socket)")
        }
    }
}
