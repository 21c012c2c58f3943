import Glibc
import QuoteSystem

/// Why a file could not be read, naming it.
public struct FileError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let reason: String
    /// errno, so callers can tell a missing file (66) from an I/O failure (74).
    public let code: Int32

    public init(path: String, reason: String, code: Int32) {
        self.path = path
        self.reason = reason
        self.code = code
    }

    public var description: String { "\(path): \(reason)" }

    /// 66 when there is nothing readable there (missing, forbidden, not a regular file),
    /// 65 when it is too large to be what it should be, else 74.
    public var exitCode: ExitCode {
        switch code {
        case ENOENT, EACCES, ENOTDIR, EINVAL, EISDIR: return .noInput
        case EFBIG: return .dataError
        default: return .ioError
        }
    }
}

/// Reads whole files with open(2)/read(2): quotectl stays free of Foundation.
public enum FileReader {
    /// Reads a regular file of at most `limit` bytes. Anything else (a FIFO, a device,
    /// a folder) is refused without blocking: a FIFO given as a file would otherwise hang,
    /// /dev/zero would never end. The cap holds while reading, whatever fstat said.
    public static func read(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
        var status = stat()
        let file = try openRegularFile(path, status: &status)
        if Int(status.st_size) > limit { throw tooLarge(path, limit) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(status.st_size) + 1)
        // A buffer the size of the file (a page at least: /proc reports 0): a 1 MiB one costs a
        // small file's reader more in page faults than the reading itself.
        let chunkSize = min(max(Int(status.st_size) + 1, 4_096), 1 << 20)
        try readAll(file.io, into: &bytes, limit: limit, name: path, chunkSize: chunkSize)
        return bytes
    }

    /// The size of the file at `path` in bytes, or nil when there is none (or it cannot be seen).
    public static func size(_ path: String) -> Int? {
        (try? FileSystem.status(path))?.size
    }

    /// Why `path` is not a regular file this process can see (missing, a folder, a FIFO, a
    /// device), from stat(2) alone: nothing is opened. Nil for a regular file.
    public static func regularFileProblem(_ path: String) -> FileError? {
        do throws(FileSystemError) {
            return kindProblem(path, try FileSystem.status(path).kind)
        } catch {
            return failure(path, error.errno)
        }
    }

    /// Standard input (a pipe, a terminal or a redirected file), up to `limit` bytes:
    /// reading stops at the cap, so `< /dev/zero` costs `limit` bytes of memory, not more.
    public static func readStandardInput(limit: Int, name: String = tr("standard input")) throws(FileError) -> [UInt8] {
        var bytes: [UInt8] = []
        // Address space only (pages are touched as they fill): no doubling copies on the way to the cap.
        bytes.reserveCapacity(limit)
        try readAll(.standardInput, into: &bytes, limit: limit, name: name)
        return bytes
    }

    /// A regular file (or standard input) read a chunk at a time, failing past `limit` bytes in
    /// all: what a list that streams into the store is read with, one chunk held at a time.
    public final class Chunks {
        private let file: FileDescriptor?
        private let descriptor: Descriptor
        private let limit: Int
        public let name: String
        public private(set) var bytesRead = 0
        private var buffer: [UInt8]

        /// `path` must be a regular file (see `read`); standard input is `init(standardInput:limit:)`.
        public convenience init(_ path: String, limit: Int) throws(FileError) {
            var status = stat()
            let opened = try FileReader.openRegularFile(path, status: &status)
            if Int(status.st_size) > limit { throw FileReader.tooLarge(path, limit) }
            let io = opened.io
            self.init(reading: io, owning: consume opened, name: path, limit: limit)
        }

        /// Standard input as `descriptor` is (a run's own: a command run in-process reads its test's
        /// file), named as standard input; it stays open, its owner's.
        public convenience init(standardInput descriptor: Descriptor, limit: Int) {
            self.init(reading: descriptor, owning: nil, name: tr("standard input"), limit: limit)
        }

        /// Reads `descriptor`, closing `file` (its owner, if this value owns it) when done.
        fileprivate init(reading descriptor: Descriptor, owning file: consuming FileDescriptor?, name: String, limit: Int,
                         chunkSize: Int = 1 << 20) {
            self.file = file
            self.descriptor = descriptor
            self.name = name
            self.limit = limit
            buffer = [UInt8](repeating: 0, count: min(chunkSize, limit + 1))
        }

        /// The next bytes, or nil at the end.
        public func next() throws(FileError) -> ArraySlice<UInt8>? {
            let count: Int
            do { count = try descriptor.read(into: &buffer) } catch { throw FileReader.failure(name, error) }
            if count == 0 { return nil }
            guard count <= limit - bytesRead else { throw FileReader.tooLarge(name, limit) }
            bytesRead += count
            return buffer[0..<count]
        }
    }

    /// Appends what `descriptor` holds to `bytes`, failing beyond `limit` bytes in all.
    private static func readAll(_ descriptor: Descriptor, into bytes: inout [UInt8], limit: Int, name: String,
                                chunkSize: Int = 1 << 20) throws(FileError) {
        let chunks = Chunks(reading: descriptor, owning: nil, name: name, limit: limit, chunkSize: chunkSize)
        while let chunk = try chunks.next() { bytes.append(contentsOf: chunk) }
    }

    /// Opens `path` for reading if it is a regular file (QuoteSystem's one opener), and says what
    /// fstat found.
    fileprivate static func openRegularFile(_ path: String, status: inout stat) throws(FileError) -> FileDescriptor {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.openRegularFile(path, status: &status)
        } catch {
            switch error {
            case .failed(let errno): throw failure(path, errno)
            case .notRegular(let kind): throw kindProblem(path, kind) ?? failure(path, Errno(EINVAL))
            }
        }
        return file
    }

    private static func kindProblem(_ path: String, _ kind: FileKind) -> FileError? {
        if kind == .regular { return nil }
        if kind == .directory { return FileError(path: path, reason: tr("is a folder, not a file"), code: EISDIR) }
        return FileError(path: path, reason: tr("not a regular file (a pipe, socket or device)"), code: EINVAL)
    }

    /// "larger than 1 MiB" rather than a byte count when the limit is a round size.
    public static func tooLarge(_ path: String, _ limit: Int) -> FileError {
        FileError(path: path, reason: tr("larger than \(ByteCount.describe(limit))"), code: EFBIG)
    }

    fileprivate static func failure(_ path: String, _ error: Errno) -> FileError {
        FileError(path: path, reason: error.description.lowercased(), code: error.code)
    }
}

/// Sizes as people write them.
public enum ByteCount {
    /// 12345678 -> "12.3 MB", 2048 -> "2.0 kB": for progress lines.
    public static func human(_ bytes: Int) -> String {
        if bytes < 1_000 { return "\(bytes) B" }
        let units = ["kB", "MB", "GB"]
        var value = Double(bytes) / 1_000
        var unit = 0
        while value >= 1_000, unit < units.count - 1 {
            value /= 1_000
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// 33554432 -> "32M", as a configuration file writes it (K, M, G: powers of 1024).
    public static func configUnits(_ bytes: Int) -> String {
        for (unit, shift) in [("G", 30), ("M", 20), ("K", 10)] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(unit)"
        }
        return String(bytes)
    }

    /// 1048576 -> "1 MiB", 1536 -> "1536 bytes".
    public static func describe(_ bytes: Int) -> String {
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return tr("\(bytes) bytes")
    }
}
