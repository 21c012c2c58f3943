import CZlib
import Glibc
import QuoteSystem

/// Whether a `by-hash` file holds what its name and manifest entry promise, read as itself (a
/// link is never followed): the file of that size and SHA-256, and its `.gz` twin one gzip member
/// that inflates to exactly those bytes. A name alone proves nothing: a link planted in its
/// place would be signed, touched and served as the feed's, and a damaged twin would fail every
/// spoke that takes gzip until the data changed. A file that fails is written again.
enum FeedFileCheck {
    /// Whether `path` is a regular file of `size` bytes whose SHA-256 is `sha256`.
    static func holds(_ path: String, size: Int, sha256: String) -> Bool {
        guard let file = regularFile(path) else { return false }
        guard let status = try? file.io.status(), Int(status.st_size) == size else { return false }
        var digest = FeedDigest()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            guard let count = try? file.io.read(into: &buffer) else { return false }
            if count == 0 { break }
            total += count
            if total > size { return false }
            buffer[0..<count].withUnsafeBytes { digest.update($0) }
        }
        return total == size && digest.finish() == sha256
    }

    /// Whether `path` is a regular file holding one gzip member, and nothing after it, that
    /// inflates to `size` bytes whose SHA-256 is `sha256`. Inflating stops past `size` bytes, so
    /// a twin costs no more than the file it stands for.
    static func inflates(_ path: String, to size: Int, sha256: String) -> Bool {
        guard let file = regularFile(path) else { return false }
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer (its CRC and length checked), as GzipWriter writes them.
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return false }
        defer { inflateEnd(&stream) }
        var digest = FeedDigest()
        var input = [UInt8](repeating: 0, count: 1 << 16)
        var output = [UInt8](repeating: 0, count: 1 << 16)
        var inflated = 0
        var ended = false
        while true {
            guard let count = try? file.io.read(into: &input) else { return false }
            if count == 0 { break }
            if ended { return false }  // bytes after the member
            var offset = 0
            // Until this chunk is used up and zlib holds no more output for a full buffer.
            var full = true
            while !ended && (offset < count || full) {
                let (status, consumed, produced) = input.withUnsafeMutableBufferPointer { source -> (Int32, Int, Int) in
                    output.withUnsafeMutableBufferPointer { target -> (Int32, Int, Int) in
                        stream.next_in = source.baseAddress.map { $0 + offset }
                        stream.avail_in = uInt(count - offset)
                        stream.next_out = target.baseAddress
                        stream.avail_out = uInt(target.count)
                        let status = inflate(&stream, Z_NO_FLUSH)
                        return (status, count - offset - Int(stream.avail_in), target.count - Int(stream.avail_out))
                    }
                }
                offset += consumed
                inflated += produced
                if inflated > size { return false }
                output[0..<produced].withUnsafeBytes { digest.update($0) }
                if status == Z_STREAM_END {
                    ended = true
                } else {
                    // Z_BUF_ERROR: no progress was possible, which is right only with no input left.
                    guard status == Z_OK || (status == Z_BUF_ERROR && offset == count) else { return false }
                    full = produced == output.count
                }
            }
            if ended && offset < count { return false }  // bytes after the member
        }
        return ended && inflated == size && digest.finish() == sha256
    }

    /// `path` open for reading when it is a regular file itself, not a link to one.
    private static func regularFile(_ path: String) -> FileDescriptor? {
        try? FileDescriptor.openRegularFile(path, followingLinks: false)
    }
}
