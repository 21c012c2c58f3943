import Glibc

/// Why a file could not be read, naming it.
public struct FileError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let reason: String
    /// errno, so callers can tell a missing file (66) from an I/O failure (74).
    public let code: Int32

    public var description: String { "\(path): \(reason)" }

    public var exitCode: Int32 { code == ENOENT || code == EACCES || code == ENOTDIR ? 66 : 74 }
}

/// Reads whole files with open(2)/read(2): quotectl stays free of Foundation.
public enum FileReader {
    public static func read(_ path: String, limit: Int = 1 << 31) throws(FileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path) }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw FileError(path: path, reason: "is a folder, not a file", code: EISDIR)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(Int(status.st_size), 0) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit {
                throw FileError(path: path, reason: "larger than \(limit) bytes", code: EFBIG)
            }
        }
        return bytes
    }

    private static func failure(_ path: String) -> FileError {
        let code = errno
        return FileError(path: path, reason: String(cString: strerror(code)).lowercased(), code: code)
    }
}
