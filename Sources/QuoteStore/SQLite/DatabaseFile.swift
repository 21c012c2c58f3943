import CSQLite
import Glibc
import QuoteBase
import QuoteSystem

/// A database file looked at from outside a connection, without ever closing a descriptor of
/// it with close(2): that drops every POSIX lock this process holds on the file, the SHARED lock
/// each of its open connections keeps on a WAL store included. Another process's connection
/// that closes then takes the EXCLUSIVE lock, believes it is the last, checkpoints without
/// asking the WAL's readers and writers and truncates the WAL under them: the live writer's next
/// read of a WAL frame fails with SQLITE_IOERR_SHORT_READ (522). SQLite's own VFS keeps such a
/// descriptor open until its connections have let go, so the header is read through it.
enum DatabaseFile {
    /// The first `count` bytes (fewer when the file is shorter). Anything but a regular file is
    /// refused without opening it (a FIFO would block the open).
    static func prefix(_ path: String, count: Int) throws(FileError) -> [UInt8] {
        if let problem = FileReader.regularFileProblem(path) { throw problem }
        _ = Database.configureLibrary
        var bytes = [UInt8](repeating: 0, count: count)
        var size: sqlite3_int64 = 0
        var read: Int32 = 0
        errno = 0
        let code = quoted_sqlite3_read_prefix(path, &bytes, Int32(count), &size, &read)
        guard code == SQLITE_OK else {
            let number = errno
            throw FileError(path: path, reason: number != 0 ? Errno(number).description.lowercased() : String(cString: sqlite3_errstr(code)),
                            code: number != 0 ? number : EIO)
        }
        return Array(bytes[..<Int(read)])
    }
}
