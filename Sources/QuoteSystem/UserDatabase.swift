import Glibc

/// The user and group databases (NSS: /etc/group, LDAP, sssd…). A lookup may wait as long as
/// the backend does, so it is made once at start-up, never while serving a client.
public enum UserDatabase {
    /// The name of group `gid` ("quoted"), or nil when the database has none.
    public static func groupName(of gid: gid_t) -> String? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.gr_name else {
            return nil
        }
        return String(cString: name)
    }
}
