import Glibc

/// A filled-in `sockaddr_un` for a path, or for an abstract name written `@name`
/// (systemd's notation: the '@' becomes a NUL, and the length counts only the name).
/// Nil when the path does not fit (107 bytes for a path).
public struct UnixSocketAddress {
    private var address = sockaddr_un()
    private let length: socklen_t

    public init?(_ path: String) {
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A path needs its terminating NUL; an abstract name does not.
        guard !bytes.isEmpty, bytes.count < capacity || (abstract && bytes.count <= capacity) else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        length = socklen_t(abstract ? pathOffset + bytes.count : MemoryLayout<sockaddr_un>.size)
    }

    public mutating func bind(_ descriptor: Int32) -> Int32 {
        let length = self.length
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(descriptor, $0, length) }
        }
    }

    public mutating func connect(_ descriptor: Int32) -> Int32 {
        let length = self.length
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, length) }
        }
    }

    /// sendto(2) of one datagram to this address (sd_notify's), never raising SIGPIPE. While the
    /// receiver's queue is full it waits at most `patience` (SO_SNDTIMEO on `descriptor`), or not
    /// at all when nil: a receiver that stopped reading loses the datagram rather than wedge the
    /// sender's thread. The count sent, or -1.
    public mutating func send(_ bytes: [UInt8], from descriptor: Int32, waitingAtMost patience: Duration? = nil) -> Int {
        var flags = MSG_NOSIGNAL
        if let patience {
            let (seconds, attoseconds) = patience.components
            var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
            guard setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)) == 0 else { return -1 }
        } else {
            flags |= MSG_DONTWAIT
        }
        let length = self.length
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bytes.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, Int32(flags), address, length) }
            }
        }
    }
}
