import QuoteSystem

/// A state file kept as a history of lines, newest last: the quotes shown, the greetings, the
/// `--unseen` keys. It is on the path of every draw, so a draw adds its lines to the end
/// (`StateFolder.append`: one write, no temporary file, no rename, no fsync) and reads only its
/// last byte; only when the file has grown past `compactionBytes` does the writer that made it so
/// rewrite it short (`StateFolder.compact`: what `keep` keeps, through an `AtomicFile`). Readers
/// read its newest `readLimit` bytes at most, whole lines only: a huge file costs no more, and a
/// line cut short (a crash) or still being written is not read.
struct StateHistory {
    let folder: StateFolder
    let name: String
    let readLimit: Int
    let compactionBytes: Int

    static let newline = UInt8(ascii: "\n")

    /// Its last whole lines, at most `readLimit` bytes of them, each with its newline (none: no
    /// file, or not readable).
    func bytes() -> [UInt8] {
        folder.lastLines(name, limit: readLimit)
    }

    /// Adds `lines` (each without its newline) to the end; past `compactionBytes`, rewrites the
    /// file with what `keep` makes of its lines (given and returned as bytes, whole lines). Throws
    /// only when the lines could not be added.
    func add(_ lines: [[UInt8]], keep: ([UInt8]) -> [UInt8]) throws(UserStateError) {
        guard !lines.isEmpty else { return }
        let ended = lines.map { $0 + [Self.newline] }
        let appended = try folder.append(name, lines: ended, limit: readLimit)
        if appended.size > compactionBytes {
            _ = folder.compact(name, limit: readLimit, needed: { $0 > compactionBytes }, rewrite: keep)
        }
    }

    /// `bytes()`, and which file they were read from (nil: none).
    func bytesAndIdentity() -> (bytes: [UInt8], identity: AppendFile.Identity?) {
        let read = folder.lastLinesAndIdentity(name, limit: readLimit)
        return (read.lines, read.identity)
    }

    /// Rewrites the file now with what `change` makes of its lines (a new round of `--unseen`),
    /// if it is still the one read (`identity`); false when it was not rewritten (no file, or one
    /// another process rewrote since: its new round came first).
    func rewrite(expecting identity: AppendFile.Identity, _ change: ([UInt8]) -> [UInt8]) -> Bool {
        folder.compact(name, limit: readLimit, expecting: identity, rewrite: change)
    }
}
