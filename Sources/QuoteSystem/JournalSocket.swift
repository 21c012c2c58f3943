import Glibc

/// systemd-journald's native socket: one entry is one datagram of fields (written by hand: no
/// libsystemd). A send never waits: a journal that is gone, full or slow refuses it at once,
/// and the caller writes its line to standard error instead.
public struct JournalSocket: Sendable {
    /// Where journald listens on every systemd system.
    public static let systemPath = "/run/systemd/journal/socket"

    public let path: String

    public init(path: String = JournalSocket.systemPath) {
        self.path = path
    }

    /// Sends one datagram, non-blocking; false when there is no socket or it refused the datagram.
    public func send(_ datagram: [UInt8]) -> Bool {
        guard var address = UnixSocketAddress(path),
              let socket = try? FileDescriptor.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
        else { return false }
        return address.send(datagram, from: socket.rawValue) == datagram.count
    }

    /// Whether standard error is the journal's stream, as systemd says to tell: JOURNAL_STREAM
    /// ("DEVICE:INODE", decimal) names the device and inode of the stream it connected, and only
    /// that stream — a variable inherited by a process whose stderr was redirected no longer matches.
    public static func isStandardError(journalStream: String?) -> Bool {
        guard let journalStream else { return false }
        let parts = journalStream.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]),
              let status = try? Descriptor.standardError.status() else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
