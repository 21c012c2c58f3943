import Glibc
import Synchronization

/// An exclusive lock on a file, held by this whole process: the first holder takes a POSIX write
/// lock (fcntl F_SETLK) on it, later holders in this process share it (a count), and the last one
/// to let go closes the one descriptor, which releases it. POSIX locks belong to the process, so
/// two threads of one process never wait for each other here, and another process asking learns
/// the holder's pid (F_GETLK), as apt names the process holding its lock. Nothing else in this
/// process may open the lock file: closing any descriptor of it would drop the lock.
public final class ProcessLock: Sendable {
    public let path: String

    public enum Failure: Error, Equatable {
        /// Another process holds it (its pid; 0 when the kernel would not say).
        case heldBy(pid: Int32)
        /// The lock file could not be opened or created.
        case cannotOpen(Errno)
    }

    /// How the lock file is made when it is missing: its mode, and (when this process is root)
    /// whose it becomes, so that the owner of what it guards can still take it.
    public struct Creation: Sendable {
        public var mode: mode_t
        public var owner: (uid: uid_t, gid: gid_t)?

        public init(mode: mode_t, owner: (uid: uid_t, gid: gid_t)? = nil) {
            self.mode = mode
            self.owner = owner
        }
    }

    /// The descriptor holding the lock and how many holders in this process share it.
    private final class Holding: Sendable {
        let descriptor: Int32
        let holders: Mutex<Int>
        init(descriptor: Int32) {
            self.descriptor = descriptor
            holders = Mutex(1)
        }
    }

    private static let held = Mutex<[String: Holding]>([:])

    private init(path: String) { self.path = path }

    deinit {
        Self.held.withLock { held in
            guard let holding = held[path] else { return }
            let left = holding.holders.withLock { count in
                count -= 1
                return count
            }
            if left == 0 {
                held[path] = nil
                FileDescriptor(adopting: holding.descriptor).close()
            }
        }
    }

    /// Takes the lock now, or throws who holds it.
    public static func take(_ path: String, creating creation: Creation) throws(Failure) -> ProcessLock {
        try held.withLock { (held: inout [String: Holding]) throws(Failure) -> ProcessLock in
            if let holding = held[path] {
                holding.holders.withLock { $0 += 1 }
                return ProcessLock(path: path)
            }
            let file: FileDescriptor
            do throws(Errno) {
                file = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, mode: creation.mode)
            } catch {
                throw Failure.cannotOpen(error)
            }
            if let owner = creation.owner { _ = fchown(file.rawValue, owner.uid, owner.gid) }
            var request = flock()
            request.l_type = Int16(F_WRLCK)
            request.l_whence = Int16(SEEK_SET)
            if fcntl(file.rawValue, F_SETLK, &request) == 0 {
                held[path] = Holding(descriptor: file.release())
                return ProcessLock(path: path)
            }
            var query = flock()
            query.l_type = Int16(F_WRLCK)
            query.l_whence = Int16(SEEK_SET)
            let holder = fcntl(file.rawValue, F_GETLK, &query) == 0 && query.l_type != Int16(F_UNLCK) ? query.l_pid : 0
            file.close()
            throw Failure.heldBy(pid: holder)
        }
    }

    /// Takes the lock, waiting while another process holds it — at most `patience` (blocking this
    /// thread); `waiting` hears the holder's pid once, when the wait begins. Throws the holder
    /// when it outlasts the patience.
    public static func take(_ path: String, creating creation: Creation, patience: Duration,
                            waiting: (Int32) -> Void = { _ in }) throws(Failure) -> ProcessLock {
        let clock = SystemClock()
        let deadline = clock.now + patience
        var told = false
        var pause = Duration.milliseconds(5)
        while true {
            do {
                return try take(path, creating: creation)
            } catch .heldBy(let pid) {
                let left = deadline - clock.now
                guard left > .zero else { throw Failure.heldBy(pid: pid) }
                if !told {
                    told = true
                    waiting(pid)
                }
                let nap = min(pause, left).components
                var interval = timespec(tv_sec: Int(nap.seconds), tv_nsec: Int(nap.attoseconds / 1_000_000_000))
                var rest = timespec()
                while nanosleep(&interval, &rest) != 0 && errno == EINTR { interval = rest }
                pause = min(pause * 2, .milliseconds(100))
            } catch {
                throw error
            }
        }
    }

    /// The name of process `pid` (/proc/PID/comm), for messages; nil when it cannot be read.
    public static func processName(_ pid: Int32) -> String? {
        guard pid > 0, let file = try? FileDescriptor.open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = (try? file.io.read(into: &bytes)) ?? 0
        file.close()
        let name = String(decoding: bytes[..<count], as: UTF8.self).filter { !$0.isNewline }
        return name.isEmpty ? nil : name
    }
}
