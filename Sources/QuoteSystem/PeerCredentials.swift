import CSystem
import Glibc

/// Who is at the other end of a Unix socket, as the kernel recorded it when that process
/// connected: SO_PEERCRED's ids and SO_PEERGROUPS' supplementary groups. Reading it asks no user
/// database (no NSS, LDAP or sssd), so it never waits on one.
public struct PeerCredentials: Sendable, Equatable {
    public let pid: pid_t
    public let uid: uid_t
    public let gid: gid_t
    /// The peer process's supplementary groups; nil when the kernel cannot say (older than 4.13).
    public let groups: [gid_t]?

    public init(pid: pid_t, uid: uid_t, gid: gid_t, groups: [gid_t]?) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// As many groups as Linux lets a process have (NGROUPS_MAX): a kernel answer beyond it is refused.
    static let maximumGroups = 65_536
}

extension Descriptor {
    /// The process at the other end of this Unix socket with its supplementary groups; nil when
    /// SO_PEERCRED fails (not a connected Unix socket).
    public func peer() -> PeerCredentials? {
        guard let ids = peerCredentials() else { return nil }
        return PeerCredentials(pid: ids.pid, uid: ids.uid, gid: ids.gid, groups: peerGroups())
    }

    /// SO_PEERGROUPS: nil when the kernel does not know it, or says more than a process may have.
    func peerGroups() -> [gid_t]? {
        var groups = [gid_t](repeating: 0, count: 64)
        while true {
            var needed: Int32 = 0
            let count = groups.withUnsafeMutableBufferPointer {
                quoted_peer_groups(rawValue, $0.baseAddress, Int32($0.count), &needed)
            }
            if count >= 0 { return Array(groups.prefix(Int(count))) }
            // More groups than room: once more with room for all of them (a bounded number).
            guard Errno.current.code == ERANGE, Int(needed) > groups.count, Int(needed) <= PeerCredentials.maximumGroups else {
                return nil
            }
            groups = [gid_t](repeating: 0, count: Int(needed))
        }
    }
}
