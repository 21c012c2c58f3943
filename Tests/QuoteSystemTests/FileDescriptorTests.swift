import Glibc
import QuoteSystem
import Testing

@Suite struct FileDescriptorTests {
    static func isOpen(_ raw: Int32) -> Bool { fcntl(raw, F_GETFD) >= 0 }

    @Test func aDescriptorIsClosedWhenItsOwnerGoes() throws {
        var raw: Int32 = -1
        do {
            let file = try FileDescriptor.open("/dev/null", O_RDONLY)
            raw = file.rawValue
            #expect(Self.isOpen(raw))
        }
        #expect(!Self.isOpen(raw))
    }

    @Test func closeClosesOnceAndReleaseHandsItOver() throws {
        let file = try FileDescriptor.open("/dev/null", O_RDONLY)
        let raw = file.rawValue
        file.close()
        #expect(!Self.isOpen(raw))

        let kept = try FileDescriptor.open("/dev/null", O_RDONLY).release()
        #expect(Self.isOpen(kept))
        FileDescriptor(adopting: kept).close()
        #expect(!Self.isOpen(kept))
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
