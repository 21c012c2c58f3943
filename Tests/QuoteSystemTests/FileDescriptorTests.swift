import Glibc
import QuoteSystem
import Testing

@Suite(.timeLimit(.minutes(5))) struct FileDescriptorTests {
    /// Whether the write end of a pipe was closed, seen from its read end: end-of-file. (Asking
    /// whether the number is still open would race with other tests opening files in this
    /// process, which may be given the same number at once.)
    /// A closed writer is waited for up to `patience`: a program another test spawns at that moment
    /// holds a copy of every descriptor between its fork and its exec (which closes them).
    static func writerClosed(_ reader: Descriptor, patience: Duration = .seconds(2)) throws -> Bool {
        _ = try Poll.wait(for: Int16(POLLIN), on: reader, timeout: patience)
        reader.setNonBlocking(true)
        var byte = [UInt8](repeating: 0, count: 1)
        do { return try reader.read(into: &byte) == 0 } catch { if error.isWouldBlock { return false }; throw error }
    }

    @Test func aDescriptorIsClosedWhenItsOwnerGoes() throws {
        var pipe = try FileDescriptor.pipe()
        do {
            let writer = FileDescriptor(adopting: dup(pipe.write.rawValue))
            pipe.write.close()
            #expect(try !Self.writerClosed(pipe.read.io, patience: .zero), "the copy still holds the pipe open")
            _ = writer.rawValue
        }
        #expect(try Self.writerClosed(pipe.read.io))
    }

    @Test func closeClosesOnceAndReleaseHandsItOver() throws {
        let first = try FileDescriptor.pipe()
        first.write.close()
        #expect(try Self.writerClosed(first.read.io))

        let second = try FileDescriptor.pipe()
        let kept = second.write.release()
        #expect(try !Self.writerClosed(second.read.io, patience: .zero), "released, not closed")
        FileDescriptor(adopting: kept).close()
        #expect(try Self.writerClosed(second.read.io))
    }

    @Test func everyDescriptorIsCloseOnExec() throws {
        let file = try FileDescriptor.open("/dev/null", O_RDONLY)
        #expect(fcntl(file.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        let pipe = try FileDescriptor.pipe()
        #expect(fcntl(pipe.read.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(pipe.write.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        let socket = try FileDescriptor.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue))
        #expect(fcntl(socket.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func aFailedCallIsItsErrno() {
        #expect(throws: Errno.noSuchFile) { try FileDescriptor.open("/nonexistent/quoted-test", O_RDONLY) }
        let error = #expect(throws: Errno.self) { try FileDescriptor.open("/", O_WRONLY) }
        #expect(error?.code == EISDIR)
        #expect(error?.description == "Is a directory")
    }

    @Test func writeAllAndReadRoundTripThroughAPipe() throws {
        let pipe = try FileDescriptor.pipe()
        let text = String(repeating: "quote\u{0}\n", count: 1_000)
        try pipe.write.io.writeAll(text)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1_000)
        while received.count < text.utf8.count {
            let count = try pipe.read.io.read(into: &chunk)
            #expect(count > 0)
            received += chunk[0..<count]
        }
        #expect(received == Array(text.utf8))
    }

    @Test func aClosedReaderIsABrokenPipeNotASignal() throws {
        signal(SIGPIPE, SIG_IGN)
        let pipe = try FileDescriptor.pipe()
        let writer = pipe.write.io
        FileDescriptor(adopting: pipe.read.release()).close()
        #expect(throws: Errno.brokenPipe) { try writer.writeAll("x") }
    }

    @Test func nonBlockingReadsSayWouldBlock() throws {
        let pipe = try FileDescriptor.pipe()
        pipe.read.io.setNonBlocking(true)
        var chunk = [UInt8](repeating: 0, count: 8)
        let error = #expect(throws: Errno.self) { try pipe.read.io.read(into: &chunk) }
        #expect(error?.isWouldBlock == true)
    }
}
