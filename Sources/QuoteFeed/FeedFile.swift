import CZlib
import QuoteBase
import QuoteSystem

/// A file of the feed, written whole or not at all (an `AtomicFile`, mode 0644: the web server
/// serving the feed reads it as another user), its failures said as the publisher says them.
final class FeedFile {
    private let file: AtomicFile

    init(folder: String, prefix: String) throws(FeedFailure) {
        do { file = try AtomicFile(in: folder, prefix: prefix, mode: 0o644) } catch {
            throw FeedFailure("cannot write in \(folder): \(error.errno)")
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(FeedFailure) {
        do { try file.write(bytes) } catch { throw FeedFailure("cannot write \(file.temporaryPath): \(error.errno)") }
    }

    func write(_ bytes: [UInt8]) throws(FeedFailure) {
        do { try file.write(bytes) } catch { throw FeedFailure("cannot write \(file.temporaryPath): \(error.errno)") }
    }

    /// Flushes to disk and renames to `name`; `adjust` may touch the file first (its times). The
    /// folder is flushed once by the publisher, after its last rename into it.
    func commit(as name: String, adjust: (Descriptor) -> Void = { _ in }) throws(FeedFailure) {
        do { try file.commit(as: name, syncingFolder: false, adjust: adjust) } catch {
            if error.call == "rename" { throw FeedFailure("cannot rename into \(error.path): \(error.errno)") }
            throw FeedFailure("cannot flush \(file.temporaryPath): \(error.errno)")
        }
    }

    /// Drops the temporary file (a file of that name was there already, or a failure).
    func abandon() { file.abandon() }
}

/// A gzip stream (zlib's deflate with a gzip header) into a FeedFile: nginx's gzip_static twin.
final class GzipWriter {
    private var stream = z_stream()
    private let output: FeedFile
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    init(into output: FeedFile) throws(FeedFailure) {
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
