import Glibc

/// A file-system call that failed on a path: which call, the path it was about, and the errno.
public struct FileSystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The system call's name ("unlink", "rename", …).
    public let call: String
    public let path: String
    public let errno: Errno

    public init(_ call: String, _ path: String, _ errno: Errno) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    /// "unlink /run/quoted/control.sock: No such file or directory".
    public var description: String { "\(call) \(path): \(errno)" }
}

/// The kinds of file stat(2) tells apart.
public enum FileKind: Sendable, Equatable {
    case regular, directory, symbolicLink, socket, fifo, characterDevice, blockDevice, unknown

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFSOCK: self = .socket
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        default: self = .unknown
        }
    }
}

/// What stat(2) says of a file, in the words the callers ask it in.
public struct FileStatus: Sendable, Equatable {
    public let kind: FileKind
    /// The permission bits (the low twelve: 0o644, 0o4755).
    public let permissions: mode_t
    public let size: Int
    /// The last modification, in whole seconds since 1970.
    public let modified: Int
    public let owner: uid_t
    public let group: gid_t
    /// Which file this is (device and inode): a file replaced under the same name is another one.
    public let device: UInt64
    public let inode: UInt64

    public init(_ raw: stat) {
        kind = FileKind(mode: raw.st_mode)
        permissions = raw.st_mode & 0o7777
        size = Int(raw.st_size)
        modified = Int(raw.st_mtim.tv_sec)
        owner = raw.st_uid
        group = raw.st_gid
        device = UInt64(raw.st_dev)
        inode = UInt64(raw.st_ino)
    }
}

/// Why a path could not be opened as a regular file for reading.
public enum RegularFileRefusal: Error, Sendable {
    case failed(Errno)
    /// It is there, but a folder, a FIFO, a socket or a device.
    case notRegular(FileKind)
}

extension FileDescriptor {
    /// Opens `path` for reading if it is a regular file (`followingLinks` false: if it is one
    /// itself, not a link to one; O_NOFOLLOW). O_NONBLOCK, so that open() of a FIFO can never
    /// make it wait; it is left on, as a regular file's reads never wait whatever it says (two
    /// fcntl calls saved on every read of a user's state).
    public static func openRegularFile(_ path: String, followingLinks: Bool = true) throws(RegularFileRefusal) -> FileDescriptor {
        var status = stat()
        return try openRegularFile(path, followingLinks: followingLinks, status: &status)
    }

    /// The same, with what fstat(2) said of the file.
    public static func openRegularFile(_ path: String, followingLinks: Bool = true, status: inout stat) throws(RegularFileRefusal) -> FileDescriptor {
        let file: FileDescriptor
        let flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW)
        do { file = try FileDescriptor.open(path, flags) } catch { throw .failed(error) }
        do { status = try file.io.status() } catch { throw .failed(error) }
        let kind = FileKind(mode: status.st_mode)
        guard kind == .regular else { throw .notRegular(kind) }
        return file
    }
}

/// The file-system calls made by path, each retried on EINTR and failing with the path named
/// (the shape of swift-system's FilePath operations, on plain `String` paths). Calls on an
/// open file are `Descriptor`'s; a file replaced whole is an `AtomicFile`.
public enum FileSystem {
    /// What access(2) is asked for.
    public struct Access: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let read = Access(rawValue: R_OK)
        public static let write = Access(rawValue: W_OK)
        public static let execute = Access(rawValue: X_OK)
    }

    /// Whether something is at `path` (a dangling link counts as nothing).
    public static func exists(_ path: String) -> Bool { Glibc.access(path, F_OK) == 0 }

    /// Whether this user may `access` `path` (checked with the real, not the effective, ids).
    public static func isAccessible(_ path: String, for access: Access) -> Bool {
        (try? checkAccess(path, for: access)) != nil
    }

    /// access(2): nothing when this user may, else why not (EACCES, EROFS, ENOENT…).
    public static func checkAccess(_ path: String, for access: Access) throws(FileSystemError) {
        try call("access", path) { Glibc.access(path, access.rawValue) }
    }

    /// stat(2), or lstat(2) when `followingLinks` is false (a link is then described, not its target).
    public static func status(_ path: String, followingLinks: Bool = true) throws(FileSystemError) -> FileStatus {
        var raw = stat()
        if followingLinks {
            try call("stat", path) { stat(path, &raw) }
        } else {
            try call("lstat", path) { lstat(path, &raw) }
        }
        return FileStatus(raw)
    }

    /// chmod(2): the permission bits exactly (the umask plays no part).
    public static func setPermissions(_ path: String, _ mode: mode_t) throws(FileSystemError) {
        try call("chmod", path) { chmod(path, mode) }
    }

    /// unlink(2): removes a name (a file, a socket, a link; not a folder).
    public static func unlink(_ path: String) throws(FileSystemError) {
        try call("unlink", path) { Glibc.unlink(path) }
    }

    /// rename(2): `target` is replaced in one step, if it was there.
    public static func rename(_ source: String, to target: String) throws(FileSystemError) {
        try call("rename", target) { Glibc.rename(source, target) }
    }

    /// readlink(2): where the link at `path` points ("/proc/self/exe": this program's file).
    public static func readLink(_ path: String) throws(FileSystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = try count("readlink", path) { readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// mkdir(2) of one folder, with `mode` less the umask (EEXIST when something is there).
    public static func makeDirectory(_ path: String, mode: mode_t) throws(FileSystemError) {
        try call("mkdir", path) { mkdir(path, mode) }
    }

    /// Like `mkdir -p`: each missing folder of `path` made with `mode`; one made meanwhile by
    /// someone else is fine. The error names the folder that could not be made.
    public static func makeDirectories(_ path: String, mode: mode_t) throws(FileSystemError) {
        if path.isEmpty || exists(path) { return }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try makeDirectories(String(path[..<slash]), mode: mode)
        }
        do { try makeDirectory(path, mode: mode) } catch where error.errno.code == EEXIST {}
    }

    /// The names in the folder at `path`, "." and ".." left out, in the order the folder keeps them.
    public static func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        guard let directory = opendir(path) else { throw FileSystemError("opendir", path, .current) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Sets the access and modification times of `path` to now (touch(1) on a file that exists);
    /// of a link itself, not what it points to, when `followingLinks` is false (touch -h).
    public static func touch(_ path: String, followingLinks: Bool = true) throws(FileSystemError) {
        let flags = followingLinks ? 0 : AT_SYMLINK_NOFOLLOW
        try call("utimensat", path) { utimensat(AT_FDCWD, path, nil, flags) }
    }

    /// fsync(2) of the folder at `path`: the names made, renamed or removed in it are on disk.
    public static func syncDirectory(_ path: String) throws(FileSystemError) {
        do throws(Errno) {
            let directory = try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY)
            try directory.io.sync()
        } catch {
            throw FileSystemError("fsync", path, error)
        }
    }

    /// Runs `body` (a call returning -1 and setting errno on failure) until it is not interrupted.
    private static func call(_ name: String, _ path: String, _ body: () -> Int32) throws(FileSystemError) {
        do { _ = try Errno.retrying(body) } catch { throw FileSystemError(name, path, error) }
    }

    private static func count(_ name: String, _ path: String, _ body: () -> Int) throws(FileSystemError) -> Int {
        do { return try Errno.retrying(body) } catch { throw FileSystemError(name, path, error) }
    }
}
