import CSystem
import Glibc
import Synchronization

/// A child process started with posix_spawn(3): its standard input and output inherited or
/// piped to us, the signals we ignore or catch put back to their defaults in it, reaped once.
/// `terminate(grace:)` asks it to stop (SIGTERM) and insists (SIGKILL) after a deadline, and
/// never signals a pid that has been reaped (and could be someone else's by now).
public final class Subprocess: Sendable {
    public enum Stream: Sendable { case inherit, pipe }

    /// How it ended: its exit status, the signal that killed it, or — when the system would
    /// not say (someone else reaped it) — why not. Never a made-up success.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
        case unknown(Errno)

        /// The shell's convention: the status, or minus the signal; 255 when unknown.
        public var code: Int32 {
            switch self {
            case .exited(let status): return status
            case .signalled(let signal): return -signal
            case .unknown: return 255
            }
        }
    }

    /// A started child with the ends of its pipes that are ours (nil where inherited).
    public struct Started: ~Copyable {
        public let process: Subprocess
        /// Write its standard input here; close it to give it end-of-file.
        public var input: FileDescriptor?
        /// Read its standard output here.
        public var output: FileDescriptor?
        /// Read its standard error here.
        public var error: FileDescriptor?
    }

    public let pid: pid_t
    /// True once waitpid reaped it: from then on its pid is not ours to signal.
    private let reaped = Mutex(false)

    private init(pid: pid_t) { self.pid = pid }

    /// Starts `executable` with `arguments` (arguments[0] is its name). `defaultSignals` are
    /// reset to their default action in the child and nothing is blocked there: a daemon's
    /// ignored SIGPIPE or caught SIGTERM must not stay so in what it runs. `environment` nil:
    /// this process's own.
    public static func spawn(_ executable: String, arguments: [String], environment: [String: String]? = nil,
                             input: Stream = .inherit, output: Stream = .inherit, error: Stream = .inherit,
                             defaultSignals: [Int32] = [SIGPIPE]) throws(Errno) -> Started {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Our ends are close-on-exec; the child's end is dup'ed onto 0 or 1 (dup2 clears that
        // flag) and closed here once the child has its copy.
        var inputPipe = input == .pipe ? try FileDescriptor.pipe() : nil
        var outputPipe = output == .pipe ? try FileDescriptor.pipe() : nil
        var errorPipe = error == .pipe ? try FileDescriptor.pipe() : nil
        if let end = inputPipe?.read.rawValue { posix_spawn_file_actions_adddup2(&actions, end, 0) }
        if let end = outputPipe?.write.rawValue { posix_spawn_file_actions_adddup2(&actions, end, 1) }
        if let end = errorPipe?.write.rawValue { posix_spawn_file_actions_adddup2(&actions, end, 2) }
        // Nothing but 0, 1 and 2 reaches the child, even a descriptor some library opened without
        // close-on-exec: a stray write end held open would keep a pipe from ending, or make
        // exec of a file someone is writing fail with "text file busy".
        try Errno.check(quoted_spawn_close_from(&actions, 3))

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in defaultSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var argv = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var envp = environment.map { $0.map { strdup($0.key + "=" + $0.value) } + [nil] }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = envp == nil ? posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            : posix_spawn(&pid, executable, &actions, &attributes, argv, &envp!)
        try Errno.check(spawned)
        var started = Started(process: Subprocess(pid: pid), input: nil, output: nil, error: nil)
        if let pipe = inputPipe.take() {
            pipe.read.close()
            started.input = consume pipe.write
        }
        if let pipe = outputPipe.take() {
            pipe.write.close()
            started.output = consume pipe.read
        }
        if let pipe = errorPipe.take() {
            pipe.write.close()
            started.error = consume pipe.read
        }
        return started
    }

    /// Waits for it to end (blocking: call from BlockingWork) and reaps it.
    public func wait() -> Termination {
        // Wait without reaping first, so that `terminate` can still signal it safely while it
        // is a zombie; then reap and mark it under the same lock `terminate` takes.
        var info = siginfo_t()
        _ = try? Errno.retrying { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }
        return reaped.withLock { reaped -> Termination in
            defer { reaped = true }
            var status: Int32 = 0
            do throws(Errno) {
                _ = try Errno.retrying { waitpid(pid, &status, 0) }
            } catch {
                return .unknown(error)
            }
            return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
        }
    }

    /// Sends `signal` unless it was reaped already.
    public func signal(_ signal: Int32) {
        reaped.withLock { reaped in if !reaped { kill(pid, signal) } }
    }

    public var hasEnded: Bool { reaped.withLock { $0 } }

    /// SIGTERM now; SIGKILL if it has not been reaped after `grace` (checked by a thread of its
    /// own, so the caller does not wait). The grace is counted on `clock`.
    public func terminate(grace: Duration, clock: any MonotonicClock = SystemClock()) {
        signal(SIGTERM)
        BlockingWork.start { [self] in
            let deadline = clock.now + grace
            while clock.now < deadline {
                if hasEnded { return }
                usleep(20_000)
            }
            signal(SIGKILL)
        }
    }

    /// Replaces this process with `executable` (execv); returns only on failure, with why.
    public static func replaceProcess(with executable: String, arguments: [String]) -> Errno {
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        execv(executable, &pointers)
        let failure = Errno.current
        for pointer in pointers { free(pointer) }
        return failure
    }
}
