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
    /// The temporary file while it is being written; nil once committed or abandoned.
    private var file: FileDescriptor?

    init(folder: String, prefix: String) throws(FeedFailure) {
        self.folder = folder
        temporary = Path.join(folder, ".\(prefix).\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp")
        do {
            file = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
        } catch {
            throw FeedFailure("cannot write in \(folder): \(error)")
        }
        // 0644 whatever the umask (a service's UMask=0007 would make it 0640): the web server
        // serving the feed reads it as another user.
        if let raw = file?.rawValue { fchmod(raw, 0o644) }
    }

    deinit { abandon() }

    func write(_ bytes: UnsafeRawBufferPointer) throws(FeedFailure) {
        guard let io = file?.io else { throw FeedFailure("cannot write \(temporary): already closed") }
        do { try io.writeAll(bytes) } catch { throw FeedFailure("cannot write \(temporary): \(error)") }
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
        guard let written = file.take() else { throw FeedFailure("cannot commit \(temporary): already closed") }
        adjust(written.rawValue)
        do { try written.io.sync() } catch {
            written.close()
            unlink(temporary)
            throw FeedFailure("cannot flush \(temporary): \(error)")
        }
        written.close()
        guard rename(temporary, Path.join(folder, name)) == 0 else {
            let reason = Errno.current
            unlink(temporary)
            throw FeedFailure("cannot rename into \(Path.join(folder, name)): \(reason)")
        }
    }

    /// Drops the temporary file (a file of that name was there already, or a failure).
    func abandon() {
        guard let open = file.take() else { return }
        open.close()
        unlink(temporary)
    }

    /// Makes the renames in `folder` durable.
    static func syncFolder(_ folder: String) {
        guard let directory = try? FileDescriptor.open(folder, O_RDONLY | O_DIRECTORY) else { return }
        try? directory.io.sync()
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
        try compress(bytes, flush: Z_NO_FLUSH)
    }

    func finish() throws(FeedFailure) {
        try compress(UnsafeRawBufferPointer(start: nil, count: 0), flush: Z_FINISH)
    }

    private func compress(_ bytes: UnsafeRawBufferPointer, flush: Int32) throws(FeedFailure) {
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
