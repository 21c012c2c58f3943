import Glibc
import QuoteSystem

/// Who may use the control socket: root, the daemon's own user, and members of the daemon's
/// group (primary or supplementary). Everyone else is refused.
///
/// A peer is judged by the credentials the kernel recorded when it connected (SO_PEERCRED,
/// SO_PEERGROUPS), never by asking the user database: a slow LDAP or sssd backend cannot stall
/// the socket's one serving thread. They are the groups the socket's own mode (0660) was checked
/// against when the peer connected, so a member added to the group after logging in is served
/// once they log in again, as for the socket itself. On a kernel that cannot tell a peer's
/// supplementary groups (before 4.13), only its uid and primary group count.
public struct PeerPolicy: Sendable {
    public let uid: uid_t
    public let gid: gid_t
    /// The daemon's group by name ("quoted"), or its number when the group database has no
    /// name: looked up once, here, for the refusal's message.
    public let groupName: String

    public init(uid: uid_t = CurrentProcess.userID, gid: gid_t = CurrentProcess.groupID, groupName: String? = nil) {
        self.uid = uid
        self.gid = gid
        self.groupName = groupName ?? UserDatabase.groupName(of: gid) ?? String(gid)
    }

    public func allows(_ peer: PeerCredentials) -> Bool {
        if peer.uid == 0 || peer.uid == uid || peer.gid == gid { return true }
        return peer.groups?.contains(gid) ?? false
    }

    /// Root and the daemon's own user: those who can edit or replace the file it reads. They keep
    /// slots group members cannot take, and only they may make the daemon re-read its configuration
    /// (`systemctl reload` runs as the daemon's user): group members may read and ask for syncs.
    public func isAdministrator(_ peer: PeerCredentials) -> Bool { peer.uid == 0 || peer.uid == uid }
}
