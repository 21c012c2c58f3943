import Glibc

/// inotify(7): the kernel tells of changes to files in watched folders, so a program that waits
/// for a file to change sleeps in `poll` on `io` instead of looking at the file again and again.
public struct Inotify: ~Copyable, Sendable {
    private let descriptor: FileDescriptor

    /// What happened to a watched file, as the kernel words it (a subset of inotify's mask).
    public struct Changes: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let modified = Changes(rawValue: UInt32(IN_MODIFY))
        public static let closedAfterWriting = Changes(rawValue: UInt32(IN_CLOSE_WRITE))
        public static let created = Changes(rawValue: UInt32(IN_CREATE))
        public static let deleted = Changes(rawValue: UInt32(IN_DELETE))
        public static let movedAway = Changes(rawValue: UInt32(IN_MOVED_FROM))
        public static let movedHere = Changes(rawValue: UInt32(IN_MOVED_TO))
        /// The watched folder itself was removed or moved.
        public static let folderGone = Changes(rawValue: UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF))
        /// The kernel's queue overflowed: events were lost, so anything may have changed.
        public static let overflowed = Changes(rawValue: UInt32(IN_Q_OVERFLOW))
        /// The watch ended (its folder is gone, or the file system was unmounted).
        public static let watchEnded = Changes(rawValue: UInt32(IN_IGNORED))
    }

    /// One event: what changed, and the name of the file in the folder (empty for the folder itself).
    public struct Event: Sendable, Equatable {
        public let changes: Changes
        public let name: String
    }

    public init() throws(Errno) {
        descriptor = FileDescriptor(adopting: try Errno.retrying { inotify_init1(Int32(O_NONBLOCK | O_CLOEXEC)) })
    }

    /// Where `poll` waits: readable when events are queued.
    public var io: Descriptor { descriptor.io }

    /// Watches the folder at `path` for `changes` to the files in it (and to itself).
    public func watch(folder path: String, for changes: Changes) throws(FileSystemError) {
        let mask = changes.rawValue | UInt32(IN_ONLYDIR)
        guard inotify_add_watch(descriptor.rawValue, path, mask) >= 0 else { throw FileSystemError("inotify_add_watch", path, .current) }
    }

    /// Every event queued now (none when there are none: the descriptor does not block).
    public func drain() throws(Errno) -> [Event] {
        var events: [Event] = []
        // Room for many events per read: the kernel never splits one across reads.
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count: Int
            do {
                count = try descriptor.io.read(into: &buffer)
            } catch where error.isWouldBlock {
                return events
            }
            if count <= 0 { return events }
            events += Self.parse(buffer[0..<count])
        }
    }

    /// struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of a NUL-padded name.
    static func parse(_ bytes: ArraySlice<UInt8>) -> [Event] {
        var events: [Event] = []
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.endIndex {
            let mask = word(bytes, at: offset + 4)
            let length = Int(word(bytes, at: offset + 12))
            let end = offset + header + length
            guard end <= bytes.endIndex else { break }
            let name = bytes[(offset + header)..<end].prefix { $0 != 0 }
            events.append(Event(changes: Changes(rawValue: mask), name: String(decoding: name, as: UTF8.self)))
            offset = end
        }
        return events
    }

    private static func word(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }
}
