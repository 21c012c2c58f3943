import Glibc
import QuoteSystem
import Testing

/// A peer's credentials come from the kernel: its ids and its supplementary groups as they were
/// when it connected, with no user database asked.
@Suite struct PeerCredentialsTests {
    /// This process's supplementary groups, as getgroups(2) gives them.
    static func ownGroups() -> [gid_t] {
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
        let written = getgroups(count, &groups)
        return Array(groups.prefix(Int(max(written, 0))))
    }

    @Test func bothEndsOfAPairSeeThisProcess() throws {
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let first = FileDescriptor(adopting: ends[0]), second = FileDescriptor(adopting: ends[1])
        let peer = try #require(first.io.peer())
        #expect(peer.pid == getpid())
        #expect(peer.uid == getuid())
        #expect(peer.gid == getgid())
        // The kernel's list (Linux 4.13+) is the process's own, in the same order.
        #expect(peer.groups?.sorted() == Self.ownGroups().sorted())
        #expect(second.io.peer()?.uid == getuid())
    }

    @Test func aDescriptorThatIsNoSocketHasNoPeer() throws {
        let pipe = try FileDescriptor.pipe()
        #expect(pipe.read.io.peer() == nil)
    }
}
