import Foundation
import TestSupport
import Testing

/// The system calls' floor is laid once, in QuoteSystem (and QuoteSystemTasks, its half that needs
/// Swift's concurrency runtime): outside them no module retries EINTR,
/// turns an errno into words, closes a bare descriptor number, runs work on Dispatch, makes a
/// raw file, descriptor, socket or process call, calls CSystem or reads a clock directly.
@Suite(.computing) struct SystemLayerTests {
    /// What may appear only in Sources/QuoteSystem and Sources/QuoteSystemTasks, and why.
    static let rules: [(name: String, pattern: String)] = [
        ("an EINTR retry (Errno.retrying has the one)", #"\bEINTR\b"#),
        ("strerror (Errno's description says it)", #"(^|[^A-Za-z_])strerror\("#),
        ("a bare close( (a FileDescriptor closes itself once)", #"(^|[^A-Za-z_.])close\("#),
        ("Dispatch (BlockingWork runs blocking work)", #"DispatchQueue|import Dispatch"#),
        ("posix_spawn / waitpid (Subprocess)", #"\b(posix_spawn|waitpid)\("#),
        ("a file call (FileSystem, AtomicFile, FileDescriptor)",
         call(["open", "openat", "creat", "pread", "pwrite", "fsync", "fdatasync", "ftruncate", "lseek", "rename", "renameat",
               "unlink", "unlinkat", "mkdir", "rmdir", "lstat", "fstat", "fstatat", "chmod", "fchmod", "chown", "fchown",
               "futimens", "utimensat", "readlink", "opendir", "fdopendir", "readdir", "closedir", "access", "realpath",
               "symlink"]) + "|" + call(["stat"], arguments: 1)),
        ("read, write, send, recv, bind or connect on a descriptor number (Descriptor, UnixSocketAddress)",
         call(["read", "write", "send", "recv", "bind", "connect"], arguments: 3)),
        ("a descriptor or socket call (FileDescriptor, Descriptor, Poll, UnixSocketAddress)",
         call(["pipe", "pipe2", "dup", "dup2", "dup3", "fcntl", "ioctl", "flock", "lockf", "socket", "socketpair", "listen",
               "accept", "accept4", "sendto", "sendmsg", "recvfrom", "recvmsg", "getsockopt", "setsockopt", "shutdown",
               "poll", "ppoll", "select", "epoll_create1", "epoll_ctl", "epoll_wait", "isatty"])),
        ("a process call (CurrentProcess, Subprocess, ParentWatch)",
         call(["kill", "fork", "vfork", "execv", "execve", "execvp", "posix_spawnp", "waitid", "getpid", "getppid", "getuid",
               "geteuid", "getgid", "getegid", "sigaction", "sigprocmask", "pthread_sigmask", "gethostname", "usleep",
               "nanosleep", "exit", "_exit"]) + "|" + call(["signal"], arguments: 2)),
        ("CSystem, the C calls QuoteSystem wraps",
         #"import CSystem|\bquoted_(peer_credentials|peer_groups|accept_cloexec|pipe_cloexec|signal_pipe|terminal_columns|terminal_rows|spawn_close_from|available_processors)\("#),
        ("a clock read directly (an injected MonotonicClock keeps every deadline; ClockReading reads what must be carried as it is)",
         #"\b(ContinuousClock|SuspendingClock|clock_gettime)\b|clock: \.(continuous|suspending)\b"#),
        ("a user-database lookup (UserDatabase: NSS may wait on LDAP or sssd, so it is asked at start-up, never per client)",
         call(["getpwuid", "getpwuid_r", "getpwnam", "getpwnam_r", "getpwent", "getgrgid", "getgrgid_r", "getgrnam", "getgrnam_r",
               "getgrent", "getgrouplist", "initgroups"])),
    ]

    /// A call of one of `names` as C spells it: not a method (`.close()`, `FileSystem.unlink(`),
    /// not a declaration (`func write(`), not a longer identifier (`readlinkCount(`), and not
    /// Swift's own look-alikes, whose first argument has a label (`write(to: file)`). Glibc's
    /// module name in front (`Glibc.open(`) does not hide one. With `arguments`, only calls with
    /// at least that many arguments count, which tells `write(fd, buffer, count)` from a local
    /// `write(text)` and `stat(path, &status)` from the struct's `stat()`.
    static func call(_ names: [String], arguments: Int = 0) -> String {
        let lead = #"(?:(?<![A-Za-z0-9_.$])|(?<=Glibc\.))(?<!func )"#
        let unlabelled = #"(?![A-Za-z_][A-Za-z0-9_]*\s*:(?!:))"#
        // One argument: text, a parenthesised group (two levels deep) or a string literal, and no
        // label (a ternary's " : " is not one).
        let argument = #"(?:[^(),":]|\s:\s|\((?:[^()"]|"(?:[^"\\]|\\.)*"|\([^()]*\))*\)|"(?:[^"\\]|\\.)*")*"#
        let more = arguments > 1 ? String(repeating: argument + ",", count: arguments - 1)
            : arguments == 1 ? #"(?!\s*\))"# : ""
        return lead + "(?:" + names.joined(separator: "|") + #")\("# + unlabelled + more
    }

    static func offenders(of pattern: String, in lines: [(file: String, number: Int, text: String)]) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return lines.filter { expression.firstMatch(in: $0.text, range: NSRange($0.text.startIndex..., in: $0.text)) != nil }
            .map { "Sources/\($0.file):\($0.number): \($0.text.trimmingCharacters(in: .whitespaces))" }
    }

    @Test(arguments: rules.map(\.name))
    func onlyTheSystemLayerMakesRawCalls(rule: String) throws {
        let pattern = try #require(Self.rules.first { $0.name == rule }).pattern
        var lines: [(file: String, number: Int, text: String)] = []
        let files = SourceTree.swiftFiles().filter { !$0.hasPrefix("QuoteSystem/") && !$0.hasPrefix("QuoteSystemTasks/") && !$0.hasPrefix("migration-embedder/") && !$0.hasPrefix("catalog-compiler/") }
        #expect(files.count > 50)
        for file in files {
            lines += try SourceTree.codeLines(file).map { (file, $0.number, $0.text) }
        }
        let found = try Self.offenders(of: pattern, in: lines)
        #expect(found.isEmpty, "\(rule) outside QuoteSystem:\n\(found.joined(separator: "\n"))")
    }

    /// libcurl's error text, like errno's, is asked for in one place (`CURLcode.message`).
    @Test func libcurlsErrorTextHasOnePlace() throws {
        var lines: [(file: String, number: Int, text: String)] = []
        for file in SourceTree.swiftFiles() { lines += try SourceTree.codeLines(file).map { (file, $0.number, $0.text) } }
        let found = try Self.offenders(of: #"curl_easy_strerror\("#, in: lines)
        #expect(found.count == 1 && found[0].hasPrefix("Sources/QuoteSync/HTTP/HTTPClient.swift"), "\(found.joined(separator: "\n"))")
    }

    /// The patterns find what they are for, and not their look-alikes.
    @Test func theRulesSeeWhatTheyAreFor() throws {
        func hits(_ rule: Int, _ text: String) throws -> Bool {
            try !Self.offenders(of: Self.rules[rule].pattern, in: [("x.swift", 1, text)]).isEmpty
        }
        #expect(try hits(0, "if errno == EINTR { continue }"))
        #expect(try hits(1, "String(cString: strerror(errno))"))
        #expect(try !hits(1, "String(cString: curl_easy_strerror(code))"))
        #expect(try hits(2, "    close(fd)"))
        #expect(try hits(2, "defer { close(descriptor) }"))
        #expect(try !hits(2, "connection.close()"))
        #expect(try !hits(2, "func closeStandardStream()"))
        #expect(try hits(3, "DispatchQueue.global().async {"))
        #expect(try hits(4, "while waitpid(pid, &status, 0) < 0 {}"))

        let files = 5, numbers = 6, descriptors = 7, processes = 8, cSystem = 9, clocks = 10
        for call in ["unlink(path)", "if written { rename(temporary, path) } else { unlink(temporary) }",
                     "guard stat(path, &status) == 0 else { return nil }", "guard lstat(path, &status) == 0",
                     "let file = Glibc.open(path, O_RDONLY)", "let n = readlink(\"/proc/self/exe\", &buffer, 4095)",
                     "chmod(path, 0o660)", "guard let directory = opendir(folder) else { return }",
                     "if mkdir(path, 0o700) != 0 && errno != EEXIST {", "access($0, X_OK) == 0",
                     "_ = times.withUnsafeBufferPointer { futimens(descriptor, $0.baseAddress) }"] {
            #expect(try hits(files, call), "\(call)")
        }
        for lookAlike in ["try FileSystem.unlink(path)", "var status = stat()", "FileDescriptor.open(path, O_RDONLY)",
                          "public static func unlink(_ path: String) throws(FileSystemError) {", "let n = unlinkCount(path)",
                          "try file.commit(as: name)", "let status = try? FileSystem.status(path)", "openFiles(3)"] {
            #expect(try !hits(files, lookAlike), "\(lookAlike)")
        }
        for call in ["write(fd, buffer, count)", "_ = Glibc.send(raw, pointer, count, 0)", "let n = read(descriptor, &byte, 1)",
                     "{ Glibc.bind(descriptor, $0, length) }", "connect(socket, address, socklen_t(size))",
                     "write(2, message, strlen(message))"] {
            #expect(try hits(numbers, call), "\(call)")
        }
        for lookAlike in ["write(text)", "write(\"a, b, c\")", "try write(source, queries: queries, into: byHash)",
                          "send(\"end\", String(code.rawValue))", "try bind(value, at: index)", "while let chunk = try read() {",
                          "connection.read(into: &buffer)", "writer.write(a, b, c)", "write((count == 0 ? \"\\n\" : \",\\n\") + quote.json)",
                          "counts = try write(to: source, in: store) { visit in }"] {
            #expect(try !hits(numbers, lookAlike), "\(lookAlike)")
        }
        for call in ["let raw = socket(AF_UNIX, SOCK_STREAM, 0)", "let flags = fcntl(fd, F_GETFL)",
                     "sendto(socket.rawValue, $0.baseAddress, $0.count, 0, address, length)", "isatty(1)", "dup2(a, 1)"] {
            #expect(try hits(descriptors, call), "\(call)")
        }
        for lookAlike in ["FileDescriptor.socket(AF_UNIX, type)", "try listener.io.listen()", "Poll.wait(&entries, timeout: nil)",
                          "try input.io.duplicate(as: .standardOutput)", "let pipe = try FileDescriptor.pipe()"] {
            #expect(try !hits(descriptors, lookAlike), "\(lookAlike)")
        }
        for call in ["daemon.add(\"pid\", Int(getpid()))", "kill(pid, SIGTERM)", "signal(SIGPIPE, SIG_IGN)", "exit(status.rawValue)",
                     "if failure == .brokenPipe { exit(0) }", "usleep(20_000)", "gethostname(&buffer, 255)",
                     "public init(uid: uid_t = getuid(), gid: gid_t = getgid()) {"] {
            #expect(try hits(processes, call), "\(call)")
        }
        for lookAlike in ["case signal(Int32)", "process.signal(SIGKILL)", "CurrentProcess.exit(0)",
                          "public static func exit(_ status: Int32) -> Never {", "let pid = CurrentProcess.id",
                          "process?.terminate(grace: Self.stopGrace)", "let exitCode = exitStatus(code)"] {
            #expect(try !hits(processes, lookAlike), "\(lookAlike)")
        }
        #expect(try hits(cSystem, "import CSystem"))
        #expect(try hits(cSystem, "static let columns = Int(quoted_terminal_columns(1))"))
        #expect(try !hits(cSystem, "quoted_curl_set_long(pointer, CURLOPT_NOSIGNAL, 1)"))
        #expect(try !hits(cSystem, "let columns = Descriptor.standardError.terminalColumns"))
        #expect(try hits(clocks, "let started = ContinuousClock.now"))
        #expect(try hits(clocks, "clock_gettime(CLOCK_REALTIME, &now)"))
        #expect(try hits(clocks, "let elapsed = measure(clock: .suspending) { work() }"))
        #expect(try !hits(clocks, "let started = clock.now"))
        #expect(try !hits(clocks, "let clock = SystemClock()"))
        let userDatabase = 11
        #expect(try hits(userDatabase, "guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0"))
        #expect(try hits(userDatabase, "if getgrouplist(name, entry.pw_gid, &groups, &count) < 0 {"))
        #expect(try !hits(userDatabase, "let name = UserDatabase.groupName(of: gid)"))
    }

    /// Comments may name what code may not do.
    @Test func commentsAreNotCode() throws {
        let file = "QuoteSystem/Errno.swift"
        let lines = try SourceTree.codeLines(file)
        #expect(!lines.contains { $0.text.contains("///") })
        #expect(lines.contains { $0.text.contains("EINTR") })
    }
}
