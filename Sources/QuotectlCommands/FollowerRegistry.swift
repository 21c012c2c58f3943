import QuoteBase
import QuoteCommandLine
import QuoteSystem

/// Where `random --follow` says it runs, so `quotectl next` can ask each one for another quote:
/// a file per follower, named by its pid and holding its pid and start time (so a pid the
/// system gave to another program since is told apart), under $XDG_RUNTIME_DIR/quoted/followers
/// (a tmpfs of this user's, gone at logout), else $XDG_STATE_HOME/quoted/followers. Entries of
/// followers that ended without removing theirs are ignored and removed.
enum FollowerRegistry {
    /// A registration to remove when the follower ends.
    struct Entry {
        let path: String
    }

    static var folder: String {
        if let runtime = Environment.absolutePath("XDG_RUNTIME_DIR") { return Path.join(runtime, "quoted/followers") }
        let state = Environment.absolutePath("XDG_STATE_HOME") ?? Path.join(Environment.home(), ".local/state")
        return Path.join(state, "quoted/followers")
    }

    /// Registers this process; nil (with a warning: `next` will not reach it) when the folder cannot be written.
    static func register() -> Entry? {
        let pid = CurrentProcess.id
        let folder = self.folder
        guard let started = startTime(of: pid) else {
            Output.error(tr("cannot register for quotectl next: /proc/\(pid)/stat unreadable (SIGUSR1 still shows another quote)"))
            return nil
        }
        do {
            if let problem = Path.makeDirectories(folder) { throw FollowerFolderProblem(message: problem) }
            let file = try AtomicFile(in: folder, prefix: String(pid), mode: 0o600)
            try file.write(Array("\(pid) \(started)\n".utf8))
            try file.commit(as: String(pid), syncingFolder: false, syncingFile: false)
            return Entry(path: Path.join(folder, String(pid)))
        } catch {
            Output.error(tr("cannot register in \(folder) for quotectl next: \(error) (SIGUSR1 still shows another quote)"))
            return nil
        }
    }

    private struct FollowerFolderProblem: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    static func remove(_ entry: Entry) { try? FileSystem.unlink(entry.path) }

    /// The pids of this user's live followers; stale entries are removed on the way.
    static func liveFollowers() -> [Int32] {
        let folder = self.folder
        guard let names = try? FileSystem.contentsOfDirectory(folder) else { return [] }
        var live: [Int32] = []
        for name in names.sorted() {
            guard let pid = Int32(name), pid > 1 else { continue }  // not a follower's entry (a temporary file): left alone
            let path = Path.join(folder, name)
            guard let status = try? FileSystem.status(path, followingLinks: false), status.kind == .regular,
                  status.owner == CurrentProcess.userID else { continue }  // another user's, or not a file: never ours to judge
            if isLive(pid, entry: path) { live.append(pid) } else { try? FileSystem.unlink(path) }
        }
        return live
    }

    /// The entry names this pid, and the process with that pid started when the entry says.
    private static func isLive(_ pid: Int32, entry path: String) -> Bool {
        guard let bytes = try? FileReader.read(path, limit: 256) else { return false }
        let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 2, Int32(words[0]) == pid, let recorded = UInt64(words[1]) else { return false }
        // SIGUSR1 ends most programs: only a quotectl is ever signalled, whatever an entry says.
        guard ProcessLock.processName(pid) == "quotectl" else { return false }
        return startTime(of: pid) == recorded
    }

    /// When the process started, in clock ticks since boot (/proc/PID/stat's 22nd field): with the
    /// pid, it names one process for good.
    static func startTime(of pid: Int32) -> UInt64? {
        guard let bytes = try? FileReader.read("/proc/\(pid)/stat", limit: 4096),
              let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // After the command's name (which may hold spaces and parentheses): field 3 onwards.
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19 else { return nil }
        return UInt64(String(decoding: fields[19], as: UTF8.self))
    }
}

let nextSpec = CommandSpec(
    name: Subcommand.next.rawValue,
    overview: """
        Show another quote in every bar that follows: SIGUSR1 to each of this user's 'quotectl random --follow' \
        (each registers under $XDG_RUNTIME_DIR/quoted/followers). For a bar's click; the same as \
        pkill -USR1 -xf 'quotectl random --follow …' with the command line spelled exactly. Exit 69 when none follows.
        """,
    options: [])

let nextCommand = Command(nextSpec) { arguments, _ in
    _ = try arguments.positionals(for: nextSpec)
    var asked = 0
    for pid in FollowerRegistry.liveFollowers() {
        do throws(Errno) {
            try ProcessSignal.send(ProcessSignal.another, to: pid)
            asked += 1
        } catch {
            Output.error(tr("cannot signal follower \(pid): \(error)"))
        }
    }
    guard asked > 0 else {
        Output.error(tr("""
            no 'quotectl random --follow' runs for this user (none registered in \(FollowerRegistry.folder)); \
            a bar that runs quotectl random on an interval shows another quote at its next run
            """))
        return .unavailable
    }
    Output.line(trn(asked, "asked \(asked) follower for another quote", "asked \(asked) followers for another quote"))
    return .success
}
