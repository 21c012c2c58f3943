import CSystem
import Glibc

/// A file with no name, in a folder the caller chooses: bytes are appended to it as they arrive
/// and read back from the start once they all did, and it is gone when the last holder lets go
/// (or the process dies), leaving nothing to clean up. A sync's list is spooled into one beside
/// the store while it downloads, so that the store is written only once the body is whole.
///
/// One writer appends (its calls never overlap); reading back starts when appending is over.
public final class SpoolFile: Sendable {
    private let descriptor: Descriptor
    /// The folder it lives in, for messages.
    public let folder: String

    private init(descriptor: Int32, folder: String) {
        self.descriptor = Descriptor(descriptor)
        self.folder = folder
    }

    deinit { _ = Glibc.close(descriptor.rawValue) }

    /// A new, empty spool in `folder` (mode 0600). Where the file system has no unnamed files
    /// (O_TMPFILE), a named one is made and unlinked at once.
    public static func create(in folder: String) throws(Errno) -> SpoolFile {
        SpoolFile(descriptor: try Errno.retrying { quoted_open_unnamed(folder) }, folder: folder)
    }

    /// Appends every byte of `bytes` (a full disk fails with ENOSPC).
    public func append(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        try descriptor.writeAll(bytes)
    }

    /// Reads the spool from its start, `chunkSize` bytes at a time, handing each chunk to `body`
    /// (whose throw ends the reading); the count of bytes read.
    @discardableResult
    public func readBack<Failure: Error>(chunkSize: Int = 1 << 16,
                                         _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(SpoolFailure<Failure>) -> Int {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, chunkSize), alignment: 16)
        defer { buffer.deallocate() }
        var offset = 0
        while true {
            let count: Int
            do throws(Errno) {
                count = try Errno.retrying { pread(descriptor.rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
            } catch {
                throw .reading(error)
            }
            guard count > 0 else { return offset }
            offset += count
            do throws(Failure) {
                try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            } catch {
                throw .handling(error)
            }
        }
    }
}

/// Why reading a spool back stopped: the file (an I/O error) or what the reader threw.
public enum SpoolFailure<Failure: Error>: Error {
    case reading(Errno)
    case handling(Failure)
}
