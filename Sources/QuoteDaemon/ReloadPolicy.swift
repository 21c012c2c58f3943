import Glibc

extension PeerPolicy {
    /// Who may make the daemon re-read its configuration: root and the daemon's own user, those
    /// who can edit or replace the file it reads. Group members may read the store and ask for
    /// syncs, but a reload is an administrator's act (and `systemctl reload` runs as the daemon's user).
    public func mayReload(peerUID: uid_t) -> Bool {
        peerUID == 0 || peerUID == uid
    }
}
