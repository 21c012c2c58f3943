import Glibc

/// A file replaced whole or not at all: bytes go to a temporary name in the same folder, are
/// fsync'd, and only then renamed over the target — a reader sees the old file or the new one,
/// never part of one, and a crash leaves at most a `.PREFIX.PID.RANDOM.tmp` file behind.
/// Writes may come in pieces (a document streamed out of the store); nothing is renamed until
/// `commit`, and a file neither committed nor kept is removed (`abandon`, or when it goes away).
public final class AtomicFile {
    public let folder: String
    public let temporaryPath: String
    /// The temporary file while it is being written; nil once committed or abandoned.
    private var file: FileDescriptor?

    /// Creates the temporary file in `folder` with exactly `mode`, whatever the umask (a service's
    /// UMask=0007 would make 0644 into 0640, and a web server reading as another user would fail).
    public init(in folder: String, prefix: String, mode: mode_t) throws(FileSystemError) {
        self.folder = folder
        temporaryPath = Self.join(folder, ".\(prefix).\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp")
        do {
            file = try FileDescriptor.open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL, mode: mode)
        } catch {
            throw FileSystemError("open", temporaryPath, error)
        }
        if let raw = file?.rawValue { _ = fchmod(raw, mode) }
    }

    deinit { abandon() }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileSystemError) {
        guard let io = file?.io else { throw FileSystemError("write", temporaryPath, Errno(EBADF)) }
        do { try io.writeAll(bytes) } catch { throw FileSystemError("write", temporaryPath, error) }
    }

    public func write(_ bytes: [UInt8]) throws(FileSystemError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(FileSystemError) in try write(raw) } }.get()
    }

    /// Flushes the file to disk (after `adjust`, which may set its times), renames it to `name` in
    /// its folder and, when `syncingFolder`, flushes the folder too, so the rename itself survives
    /// a crash. A writer renaming many files into one folder passes false and calls
    /// `FileSystem.syncDirectory` once after the last. On failure the temporary file is removed
    /// and whatever `name` was stays as it was. Without `syncingFile`, the rename alone keeps a
    /// reader from seeing part of a file; a crash may then lose the newest version (a reading
    /// the next write replaces anyway, such as the daemon's metrics).
    public func commit(as name: String, syncingFolder: Bool = true, syncingFile: Bool = true,
                       adjust: (Descriptor) -> Void = { _ in }) throws(FileSystemError) {
        guard let written = file.take() else { throw FileSystemError("fsync", temporaryPath, Errno(EBADF)) }
        adjust(written.io)
        do { if syncingFile { try written.io.sync() } } catch {
            written.close()
            _ = unlink(temporaryPath)
            throw FileSystemError("fsync", temporaryPath, error)
        }
        written.close()
        let target = Self.join(folder, name)
        do { try FileSystem.rename(temporaryPath, to: target) } catch {
            _ = unlink(temporaryPath)
            throw error
        }
        if syncingFolder { try FileSystem.syncDirectory(folder) }
    }

    /// Drops the temporary file (the same bytes are in place already, or a failure).
    public func abandon() {
        guard let open = file.take() else { return }
        open.close()
        _ = unlink(temporaryPath)
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
