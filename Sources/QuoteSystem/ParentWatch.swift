import Glibc

/// A child process that stops with its parent. The daemon reads each sync child's standard
/// output (a pipe) until the child ends; a daemon that died — SIGKILL, outside systemd's cgroup —
/// closed that pipe's reading end, which poll(2) reports on the writing end as POLLERR, and the
/// child is re-parented (its parent pid changes). Either way the child sends itself SIGTERM and
/// ends as a stopped sync does: its transaction never commits. PR_SET_PDEATHSIG is not used: it
/// fires when the parent's spawning *thread* ends, and the daemon spawns from worker threads.
public enum ParentWatch {
    /// Starts watching `output` (this process's end of a pipe the parent reads) and the parent
    /// pid `parent` had when this process started. False when `output` is no pipe or no thread
    /// could be made (then nothing is watched).
    @discardableResult
    public static func start(output: Descriptor, parent: pid_t = getppid()) -> Bool {
        var status = stat()
        guard fstat(output.rawValue, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return false }
        // A parent that died before this line: the pipe's reader is gone already, or the parent changed.
        let thread = JoinableThread {
            var entries = [pollfd(fd: output.rawValue, events: 0, revents: 0)]
            while true {
                entries[0].revents = 0
                let ready = (try? Poll.once(&entries, milliseconds: 1_000)) ?? false
                let readerGone = ready && entries[0].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
                if readerGone || getppid() != parent {
                    kill(getpid(), SIGTERM)
                    return
                }
            }
        }
        return thread != nil
    }
}
