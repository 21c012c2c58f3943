import QuoteBase
import QuoteSystem
import Synchronization

/// The daemon's Prometheus metrics as a file for node_exporter's textfile collector (`[metrics]
/// textfile`): replaced whole (a temporary name in the same folder, then renamed), mode 0644 so
/// node_exporter reads it whatever its user. A write that fails is said once, as a warning, until
/// one succeeds again; it never fails a sync.
public final class MetricsTextfile: Sendable {
    /// Writes `bytes` as `name` in `folder`, whole or not at all.
    public typealias Writer = @Sendable (_ folder: String, _ name: String, _ bytes: [UInt8]) throws -> Void

    public let path: String
    public let folder: String
    public let name: String
    private let writer: Writer
    /// Whether the last write failed: the warning is logged once per run of failures.
    private let failing = Mutex(false)

    public init(path: String, writer: @escaping Writer = MetricsTextfile.replace) {
        self.path = path
        // The configuration takes absolute paths only; a bare name (the hidden bench command's) is here.
        if let slash = path.lastIndex(of: "/") {
            let parent = String(path[..<slash])
            folder = parent.isEmpty ? "/" : parent
            name = String(path[path.index(after: slash)...])
        } else {
            folder = "."
            name = path
        }
        self.writer = writer
    }

    /// `[metrics] textfile = path`, its folder checked; nil when none is set. At start and on
    /// reload alike: a folder that is not there or takes no file is a configuration the daemon
    /// refuses (exit 78), with the same words either way.
    public static func checked(_ path: String?) throws(ConfigurationProblem) -> MetricsTextfile? {
        guard let path else { return nil }
        let textfile = MetricsTextfile(path: path)
        try textfile.checkFolder()
        return textfile
    }

    /// The folder must be there and take a file, or the daemon does not start (exit 78).
    /// A file is made and removed, since access(2) says nothing true for root or a read-only mount.
    public func checkFolder() throws(ConfigurationProblem) {
        guard (try? FileSystem.status(folder))?.kind == .directory else {
            throw ConfigurationProblem("[metrics] textfile: the folder \(folder) does not exist (or is not a folder)")
        }
        do {
            let probe = try AtomicFile(in: folder, prefix: name, mode: 0o644)
            probe.abandon()
        } catch {
            throw ConfigurationProblem("[metrics] textfile: the folder \(folder) is not writable by this user (\(error))")
        }
    }

    /// Writes `text`; logs the first failure of a run of them, and the write that ends it.
    public func write(_ text: String, logger: Logger) {
        do {
            try writer(folder, name, Array(text.utf8))
            if failing.withLock({ was in defer { was = false }; return was }) {
                logger.info("metrics: \(path) written again")
            }
        } catch {
            if !failing.withLock({ was in defer { was = true }; return was }) {
                logger.warning("metrics: could not write \(path): \(error) (syncs go on; said once until a write succeeds)")
            }
        }
    }

    /// The real writer: `AtomicFile`, without the fsyncs, which would cost more than the whole
    /// reading. A crash right after the rename may leave the file empty or zero-filled on some
    /// file systems (node_exporter then reports a scrape error for it): the daemon writes it
    /// again when it starts, so after the reboot that follows such a crash.
    public static let replace: Writer = { folder, name, bytes in
        let file = try AtomicFile(in: folder, prefix: name, mode: 0o644)
        try file.write(bytes)
        try file.commit(as: name, syncingFolder: false, syncingFile: false)
    }
}

/// A configuration the daemon cannot start with, found outside the file's own checks (exit 78).
public struct ConfigurationProblem: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
