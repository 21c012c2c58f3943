import Glibc
import QuoteSystem

/// Who may use the control socket: root, the daemon's own user, and members of
/// the daemon's group (primary or supplementary). Everyone else is refused.
public struct PeerPolicy: Sendable {
    public let uid: uid_t
    public let gid: gid_t

    public init(uid: uid_t = CurrentProcess.userID, gid: gid_t = CurrentProcess.groupID) {
        self.uid = uid
        self.gid = gid
    }

    /// The daemon's group by name ("quoted"), or its number when the group database has no name.
    public var groupName: String {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.gr_name else {
            return String(gid)
        }
        return String(cString: name)
    }

    public func allows(peerUID: uid_t, peerGID: gid_t, supplementaryGroups: () -> [gid_t]) -> Bool {
        if peerUID == 0 || peerUID == uid || peerGID == gid { return true }
        return supplementaryGroups().contains(gid)
    }

    /// The groups of a user from the user database (getgrouplist), for peers whose
    /// primary group is not ours. /proc/PID is no help: ProtectProc=invisible hides it.
    public static func groups(ofUser uid: uid_t) -> [gid_t] {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else { return [] }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, entry.pw_gid, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, entry.pw_gid, &groups, &count) >= 0 else { return [] }
        }
        return Array(groups.prefix(Int(count)))
    }
}
