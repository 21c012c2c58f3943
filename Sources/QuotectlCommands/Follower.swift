import Glibc
import QuoteBase
import QuoteStore
import QuoteSystem

/// `--follow`: one store connection kept, a line (the lines of one update) written now, at each
/// interval, at once when another process commits to the store and on SIGUSR1. At rest it sleeps
/// in one poll(2) on the signal pipe, standard output (for the reader going away) and inotify,
/// with the interval as timeout: no busy polling. Lines are written one update at a time, once
/// standard output takes them, so a reader that never reads leaves it waiting, never queueing.
struct Follower {
    let store: Store
    let interval: Duration
    /// Registered for `quotectl next` (a quote follower; a status follower only reacts to SIGUSR1).
    let registers: Bool
    /// The lines of one update; `NoMatch` when nothing matches (at start: exit 66; later the bar keeps its line).
    let render: () throws -> [String]

    enum Ending {
        /// The reader closed the pipe, or a signal asked to stop: exit 0 quietly.
        case quietly
        /// Standard output failed otherwise (said): exit 74.
        case unwritable
    }

    /// A follower writes to a program's standard output and takes its signals: a run in-process
    /// (a test's) has neither. Only such a run meets it.
    struct NeedsAProgram: Error, CustomStringConvertible {
        // English on purpose: only a run in-process (a test's) meets it, never a user.
        var description: String { "--follow needs a program's standard output and signals" }
    }

    func run() throws -> ExitCode {
        guard let output = Run.current.context.followableOutput else { throw NeedsAProgram() }
        let signals = try CurrentProcess.signalPipe([ProcessSignal.another] + ProcessSignal.stopping)
        let watch = try StoreWatch(store: store)
        let registration = registers ? FollowerRegistry.register() : nil
        defer { registration.map(FollowerRegistry.remove) }
        do {
            try loop(signals: signals, output: output, watch: watch)
        } catch let gone as StoreWatch.StoreGone {
            Output.error(tr("\(gone.message); start the follower again once there is a store"))
            return .ioError
        } catch let ending as Ending {
            return ending == .quietly ? .success : .ioError
        }
    }

    private func loop(signals: Descriptor, output: Descriptor, watch: StoreWatch) throws -> Never {
        let clock = SystemClock()
        try update(signals: signals, output: output, first: true)
        var nextLine = clock.now + interval
        while true {
            let now = clock.now
            let wake = watch.confirmationDue.map { min($0, nextLine) } ?? nextLine
            var entries = [pollfd(fd: signals.rawValue, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: output.rawValue, events: 0, revents: 0)]
            if let inotify = watch.descriptor(now: now) { entries.append(pollfd(fd: inotify.rawValue, events: Int16(POLLIN), revents: 0)) }
            _ = try Poll.once(&entries, milliseconds: clock.pollTimeout(until: wake))
            if entries[1].revents & Int16(POLLERR | POLLHUP) != 0 { throw Ending.quietly }
            var another = false
            if entries[0].revents != 0 { another = try Self.readSignals(signals) }
            if entries.count > 2, entries[2].revents != 0 { try watch.readEvents(now: clock.now) }
            if try watch.committed(now: clock.now) { another = true }
            if clock.now >= nextLine {
                try watch.checkIdentity()
                another = true
            }
            guard another else { continue }
            try update(signals: signals, output: output, first: false)
            nextLine = clock.now + interval
        }
    }

    /// The signals that arrived: true for SIGUSR1 (another line); a stop signal ends the follower.
    private static func readSignals(_ signals: Descriptor) throws(Ending) -> Bool {
        var bytes = [UInt8](repeating: 0, count: 64)
        guard let count = try? signals.read(into: &bytes), count > 0 else { return false }
        if bytes.prefix(count).contains(where: { ProcessSignal.stopping.contains(Int32($0)) }) { throw .quietly }
        return true
    }

    /// Waits until standard output takes a line (or the reader goes, or a stop signal comes),
    /// then renders the update and writes it whole.
    private func update(signals: Descriptor, output: Descriptor, first: Bool) throws {
        try Self.waitUntilWritable(signals: signals, output: output)
        let lines: [String]
        do {
            lines = try render()
        } catch let nothing as NoMatch where !first {
            // The store changed and nothing matches now: say so, keep the bar's last line, and keep following.
            Output.error(nothing.message)
            return
        } catch let failure as StoreError where !first && failure.exitCode == .temporaryFailure {
            // A writer held the store past the busy timeout: the bar keeps its line until the next update.
            Output.error(failure.description)
            return
        }
        var text = ""
        for line in lines { text += line + "\n" }
        Output.flush()
        // A page at a time, each once the pipe has room for it: a waybar line carries the whole
        // quote as its tooltip, and a write larger than the room left would block where no stop
        // signal reaches it (the signal pipe's handlers restart interrupted calls).
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            if start > 0 { try Self.waitUntilWritable(signals: signals, output: output) }
            let end = min(bytes.count, start + Int(PIPE_BUF))
            do {
                try output.writeAll(Array(bytes[start..<end]))
            } catch .brokenPipe {
                throw Ending.quietly
            } catch {
                Output.error(tr("cannot write to standard output: \(error)"))
                throw Ending.unwritable
            }
            start = end
        }
    }

    /// Returns once standard output has room for a page; the reader going away or a stop signal ends the follower.
    private static func waitUntilWritable(signals: Descriptor, output: Descriptor) throws {
        var entries = [pollfd(fd: output.rawValue, events: Int16(POLLOUT), revents: 0),
                       pollfd(fd: signals.rawValue, events: Int16(POLLIN), revents: 0)]
        while true {
            _ = try Poll.once(&entries, milliseconds: -1)
            if entries[0].revents & Int16(POLLERR | POLLHUP) != 0 { throw Ending.quietly }
            if entries[0].revents & Int16(POLLOUT) != 0 { return }
            // A SIGUSR1 while the reader does not read: the line written once it reads is new anyway.
            if entries[1].revents != 0 { _ = try readSignals(signals) }
        }
    }
}

extension Follower.Ending: Error {}
