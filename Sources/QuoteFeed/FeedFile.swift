import CZlib
import Glibc
import QuoteBase
import QuoteSystem

/// A file written whole or not at all: bytes go to a temporary name in the same folder, are
/// fsync'd, and only then renamed into place — a reader sees the old file or the new one,
/// never part of one.
final class AtomicFile {
    let folder: String
    private let temporary: String
    private var descriptor: Int32

    init(folder: String, prefix: String) throws(FeedFailure) {
        self.folder = folder
        temporary = Path.join(folder, ".\(prefix).\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp")
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FeedFailure("cannot write in \(folder): \(Errno.describe(errno))") }
    }

    deinit { abandon() }

    func write(_ bytes: UnsafeRawBufferPointer) throws(FeedFailure) {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw FeedFailure("cannot write \(temporary): \(Errno.describe(errno))") }
            offset += count
        }
    }

    func write(_ bytes: [UInt8]) throws(FeedFailure) {
        var failure: FeedFailure?
        bytes.withUnsafeBytes { raw in
            do throws(FeedFailure) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Flushes to disk and renames to `name`; `adjust` may touch the descriptor first (its times).
    func commit(as name: String, adjust: (Int32) -> Void = { _ in }) throws(FeedFailure) {
        adjust(descriptor)
        guard fsync(descriptor) == 0 else { throw FeedFailure("cannot flush \(temporary): \(Errno.describe(errno))") }
        close(descriptor)
        descriptor = -1
        guard rename(temporary, Path.join(folder, name)) == 0 else {
            let reason = Errno.describe(errno)
            unlink(temporary)
            throw FeedFailure("cannot rename into \(Path.join(folder, name)): \(reason)")
        }
    }

    /// Drops the temporary file (a file of that name was there already, or a failure).
    func abandon() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(temporary)
    }

    /// Makes the renames in `folder` durable.
    static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}

/// A gzip stream (zlib's deflate with a gzip header) into an AtomicFile: nginx's gzip_static twin.
final class GzipWriter {
    private var stream = z_stream()
    private let output: AtomicFile
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    init(into output: AtomicFile) throws(FeedFailure) {
        self.output = output
        // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
        guard deflateInit2_(&stream, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw FeedFailure("zlib: cannot start a gzip stream")
        }
    }

    deinit { deflateEnd(&stream) }

    func write(_ bytes: UnsafeRawBufferPointer) throws(FeedFailure) {
        try run(bytes, flush: Z_NO_FLUSH)
    }

    func finish() throws(FeedFailure) {
        try run(UnsafeRawBufferPointer(start: nil, count: 0), flush: Z_FINISH)
    }

    private func run(_ bytes: UnsafeRawBufferPointer, flush: Int32) throws(FeedFailure) {
        let input = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.next_in = input
        stream.avail_in = uInt(bytes.count)
        while true {
            let (status, produced) = buffer.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                let status = deflate(&stream, flush)
                return (status, out.count - Int(stream.avail_out))
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else { throw FeedFailure("zlib: deflate failed (\(status))") }
            if produced > 0 {
                try output.write(Array(buffer[0..<produced]))
            }
            if flush == Z_FINISH ? status == Z_STREAM_END : (stream.avail_in == 0 && produced < buffer.count) { return }
        }
    }
}

public struct FeedFailure: Error, Equatable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
