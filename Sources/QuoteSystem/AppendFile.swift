import Glibc

/// A file that grows by whole lines: a history that several processes add to at once (a status
/// bar each second and a terminal), each line added with O_APPEND — no temporary file, no rename,
/// no fsync, so that adding one costs an open, a flock, a write and a close. What keeps lines
/// whole is the file's flock, which each appender holds for its few writes (grouped in writes of
/// at most `atomicBytes`, a longer line in one of its own). Now and then a writer makes the file
/// short again (`compact`): rewritten whole through an `AtomicFile` under that flock, which
/// appenders wait for (briefly: `lockPatience`): they add to the file that replaced it.
public enum AppendFile {
    /// PIPE_BUF: the most one write of whole lines holds.
    public static let atomicBytes = 4_096
    /// How long an appender waits for the file's flock (a compaction takes about a millisecond):
    /// past it, something else holds it (a stopped process, a backup's flock(1)), and the lines
    /// go in without it rather than hold a draw up, as a plain O_APPEND write would.
    static let lockPatience = 200

    /// What adding lines left behind.
    public struct Appended: Sendable, Equatable {
        /// The file's size once they were in (other processes' lines counted).
        public let size: Int

        public init(size: Int) {
            self.size = size
        }
    }

    /// `open(2)` of `path`, its failure named by the path.
    private static func opened(_ path: String, _ flags: Int32, mode: mode_t) throws(FileSystemError) -> FileDescriptor {
        do throws(Errno) {
            return try FileDescriptor.open(path, flags, mode: mode)
        } catch {
            throw FileSystemError("open", path, error)
        }
    }

    /// A regular file at `path` (a link followed), its failure named by the path.
    private static func openedRegular(_ path: String) throws(FileSystemError) -> FileDescriptor {
        do throws(RegularFileRefusal) {
            return try FileDescriptor.openRegularFile(path)
        } catch {
            switch error {
            case .failed(let errno): throw FileSystemError("open", path, errno)
            case .notRegular: throw FileSystemError("open", path, Errno(EINVAL))
            }
        }
    }

    /// Adds `lines` (each whole, its newline included) to the end of the file at `path`, made
    /// with `mode` when missing. The file itself only (O_NOFOLLOW: a link is refused, ELOOP), and
    /// a regular file only (anything else is refused, EINVAL, without waiting on it). One appender
    /// or compaction at a time holds the file's flock (an append is a few hundred bytes: the wait
    /// is microseconds), so the end an appender sees is whole — another's write in progress shows
    /// a size that grows a page at a time —, no line is added between a compaction's read and its
    /// rename, and a file replaced meanwhile is opened again. A last line a crash left without its
    /// newline is ended first: it is lost alone, not with the first of these.
    public static func append(lines: [[UInt8]], to path: String, mode: mode_t) throws(FileSystemError) -> Appended {
        for _ in 0..<8 {
            let file = try opened(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, mode: mode)
            _ = try lockBriefly(file.io, path)
            let before = try status(file.io, path)
            guard FileKind(mode: before.st_mode) == .regular else { throw FileSystemError("open", path, Errno(EINVAL)) }
            // Compacted while this waited for the lock: the lines go to the file that replaced it.
            guard before.st_nlink > 0 else { continue }
            let ended = before.st_size == 0 || (try? lastByte(file.io, size: Int(before.st_size))) == UInt8(ascii: "\n")
            for bytes in grouped(ended ? lines : [[UInt8(ascii: "\n")]] + lines) {
                do { try file.io.writeAll(bytes) } catch { throw FileSystemError("write", path, error) }
            }
            let after = try status(file.io, path)
            return Appended(size: Int(after.st_size))
        }
        // Replaced eight times in a row while waiting: another writer compacts in a loop.
        throw FileSystemError("open", path, Errno(EAGAIN))
    }

    /// The file's last whole lines, at most `limit` bytes of them, from the start of a line: a
    /// file larger than that is read from its end (a history's newest part), and a last line
    /// without its newline (still being written, or cut short) is left out. Follows a link, as a
    /// reader of any file does; refuses what is not a regular file.
    public static func lastLines(of path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        try lastLinesAndIdentity(of: path, limit: limit).lines
    }

    /// Which file a path named when it was read: a compaction replaces it with another.
    public struct Identity: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64

        // Not the change time: every append moves it, and a rewrite must keep what others added.
        // (An inode number freed by one rewrite could be the next one's: two rewrites between one
        // draw's read and its own would let one quote of a round repeat.)
        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// `lastLines`, and which file they were read from (for a rewrite that must find the same one).
    public static func lastLinesAndIdentity(of path: String, limit: Int) throws(FileSystemError) -> (lines: [UInt8], identity: Identity) {
        let file = try openedRegular(path)
        let found = try status(file.io, path)
        let size = Int(found.st_size)
        return (try wholeLines(file.io, from: max(0, size - limit), to: size, path: path), Identity(found))
    }

    /// Rewrites the file `name` in `folder` short: `rewrite` is given its last whole lines (at
    /// most `limit` bytes, as `lastLines` reads them) and returns what the file is to hold, which
    /// replaces it through an `AtomicFile` with `mode` (not synced: a history). Other processes'
    /// appends wait for it (the file's flock) and go to the new file. False, and nothing done,
    /// when the flock stays held past `lockPatience` (a stopped process: the next writer tries
    /// again), when the file was replaced meanwhile (another compaction came first), or when
    /// `needed` says of its size that it need not be. A held flock is most often an append's
    /// microseconds, or a child process spawned meanwhile whose copy of the descriptor lasts
    /// until its exec: waited for, not taken as another compaction.
    ///
    /// `expecting`: only the file read earlier is rewritten (false when another replaced it since);
    /// with it, the flock is waited for (an append holds it for microseconds).
    public static func compact(_ name: String, in folder: String, mode: mode_t, limit: Int, expecting: Identity? = nil,
                               needed: (Int) -> Bool = { _ in true },
                               rewrite: ([UInt8]) -> [UInt8]) throws(FileSystemError) -> Bool {
        let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
        let file = try opened(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, mode: 0)
        if expecting == nil {
            guard try lockBriefly(file.io, path) else { return false }
        } else {
            do throws(Errno) { try file.io.lockExclusively() } catch { throw FileSystemError("lock", path, error) }
        }
        let found = try status(file.io, path)
        let size = Int(found.st_size)
        guard FileKind(mode: found.st_mode) == .regular, found.st_nlink > 0, needed(size),
              expecting.map({ $0 == Identity(found) }) ?? true else { return false }
        let current = try wholeLines(file.io, from: max(0, size - limit), to: size, path: path)
        let contents = rewrite(current)
        let replacement = try AtomicFile(in: folder, prefix: name, mode: mode)
        do throws(FileSystemError) {
            try replacement.write(contents)
        } catch {
            replacement.abandon()
            throw error
        }
        // Appenders wait on this file's lock until it is closed, then find it replaced and add
        // to the new one: nothing was added between the reading and the rename.
        try replacement.commit(as: name, syncingFolder: false, syncingFile: false)
        // Closed here, not after its last read (a noncopyable value ends at its last use).
        file.close()
        return true
    }

    /// Takes the file's flock, trying each millisecond for `lockPatience` milliseconds; false when
    /// it is still held then (an appender goes on without it, a compaction does not).
    private static func lockBriefly(_ io: Descriptor, _ path: String) throws(FileSystemError) -> Bool {
        for _ in 0..<lockPatience {
            if flock(io.rawValue, LOCK_EX | LOCK_NB) == 0 { return true }
            let failure = Errno.current
            guard failure.code == EWOULDBLOCK || failure.code == EINTR else { throw FileSystemError("lock", path, failure) }
            usleep(1_000)
        }
        return false
    }

    /// `lines` joined into writes of at most `atomicBytes`, each of whole lines (a longer line alone).
    static func grouped(_ lines: [[UInt8]]) -> [[UInt8]] {
        var writes: [[UInt8]] = []
        var current: [UInt8] = []
        for line in lines {
            if !current.isEmpty, current.count + line.count > atomicBytes {
                writes.append(current)
                current = []
            }
            current += line
        }
        if !current.isEmpty { writes.append(current) }
        return writes
    }

    /// The bytes from `start` to `end` that are whole lines: from the first line's start (or the
    /// file's start) to the last newline.
    private static func wholeLines(_ io: Descriptor, from start: Int, to end: Int, path: String) throws(FileSystemError) -> [UInt8] {
        let cut = start > 0
        // From the byte before `start`: when it ends a line, `start` begins one, which is kept.
        var bytes = try read(io, from: cut ? start - 1 : start, count: end - start + (cut ? 1 : 0), path: path)
        if cut {
            guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return [] }
            bytes.removeSubrange(...newline)
        }
        guard let last = bytes.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        bytes.removeSubrange((last + 1)...)
        return bytes
    }

    /// pread(2) of `count` bytes from `start` (fewer when the file is shorter now).
    private static func read(_ io: Descriptor, from start: Int, count: Int, path: String) throws(FileSystemError) -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = bytes.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in
                    try Errno.retrying { pread(io.rawValue, raw.baseAddress! + done, count - done, off_t(start + done)) }
                }
            }
            let got: Int
            do { got = try result.get() } catch { throw FileSystemError("pread", path, error) }
            if got == 0 { break }
            done += got
        }
        bytes.removeSubrange(done...)
        return bytes
    }

    private static func lastByte(_ io: Descriptor, size: Int) throws(FileSystemError) -> UInt8? {
        try read(io, from: size - 1, count: 1, path: "").first
    }

    private static func status(_ io: Descriptor, _ path: String) throws(FileSystemError) -> stat {
        do { return try io.status() } catch { throw FileSystemError("fstat", path, error) }
    }
}
