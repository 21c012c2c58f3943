import Glibc
import QuoteBase
import QuoteModels
import QuoteSystem

/// The highest serial a feed folder's publisher has written, kept in `.serial` beside the
/// manifest (a dot file, which the shipped nginx block never serves). It is in place before each
/// manifest that holds its serial, so a manifest.json damaged or replaced since cannot bring the
/// next serial below one a spoke holds. A folder lost whole loses it too; the clock then keeps
/// the serial above the last one (`FeedSerial`).
enum SerialFile {
    static let name = ".serial"

    static func path(in folder: String) -> String { Path.join(folder, name) }

    /// The serial of the next manifest in `folder`: above both the previous manifest's and the
    /// record's, and never below the time of writing, by either reading of the clock (`now` in
    /// seconds, `milliseconds`), so it does not go back even when the folder was lost.
    static func next(after previous: Manifest?, in folder: String, now: Int, milliseconds: Int) throws(FeedFailure) -> Int {
        // A feed written "later" than now: this host's clock went back, and a serial from it could too.
        if let previous, previous.generated > now + 300 {
            throw FeedFailure("the manifest in \(folder) was written at \(UnixTime.timestamp(previous.generated)), after this host's clock (\(UnixTime.timestamp(now))): fix the clock before publishing")
        }
        let published = previous.map { FeedSerial.milliseconds($0.serial) }
        let recorded = try Self.read(in: folder).map(FeedSerial.milliseconds)
        let highest = [published, recorded].compactMap { $0 }.max()
        guard let serial = FeedSerial.next(after: highest, now: max(milliseconds, now * 1_000)) else {
            let file = highest == recorded ? Self.path(in: folder) : Path.join(folder, ManifestHeader.fileName)
            throw FeedFailure("\(file) holds serial \(highest ?? 0), which leaves no higher one to write: remove \(file) to start again at this host's clock")
        }
        return serial
    }

    /// The serial recorded in `folder`, in the unit it was written in; nil when none is (a feed
    /// an older hub published). A record that is not a serial, or not a file of its own (a link),
    /// is refused, naming it: guessing past it could go back.
    static func read(in folder: String) throws(FeedFailure) -> Int? {
        let path = Self.path(in: folder)
        var bytes = [UInt8](repeating: 0, count: 32)
        let count: Int
        let refusal = " (it records the highest serial published: remove it only to start again from manifest.json and this host's clock)"
        do throws(RegularFileRefusal) {
            let file = try FileDescriptor.openRegularFile(path, followingLinks: false)
            do { count = try file.io.read(into: &bytes) } catch { throw RegularFileRefusal.failed(error) }
        } catch {
            switch error {
            case .failed(let errno) where errno == .noSuchFile: return nil
            case .failed(let errno): throw FeedFailure("cannot read \(path): \(errno)" + refusal)
            case .notRegular: throw FeedFailure("cannot read \(path): not a regular file (a link, a folder or a FIFO)" + refusal)
            }
        }
        var text = String(decoding: bytes[0..<count], as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        guard count < bytes.count, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let serial = Int(text), serial <= Manifest.largestSerial else {
            throw FeedFailure("\(path) holds no serial" + refusal)
        }
        return serial
    }

    /// Records `serial` (written whole, flushed to disk, renamed into place, the folder flushed)
    /// before any manifest holding it is put in place.
    static func write(_ serial: Int, in folder: String) throws(FeedFailure) {
        let file = try FeedFile(folder: folder, prefix: "serial")
        try file.write(Array("\(serial)\n".utf8))
        try file.commit(as: name)
        try? FileSystem.syncDirectory(folder)
    }
}
