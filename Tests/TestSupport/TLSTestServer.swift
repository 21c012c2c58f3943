import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An HTTPS server on 127.0.0.1 with a self-signed certificate that no client trusts
/// (Python's ssl module, a key and certificate made by openssl), for the TLS failures a
/// real machine meets: a captive portal, an intercepting proxy, an expired certificate.
public final class TLSTestServer: @unchecked Sendable {
    public let port: Int
    private let process: Process
    private let folder: TemporaryFolder

    public var baseURL: String { "https://127.0.0.1:\(port)" }

    public init() throws {
        folder = TemporaryFolder("quoted-tls")
        let key = folder.file("key.pem"), certificate = folder.file("cert.pem")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                             "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=quoted-test"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        let script = """
        import socket, ssl, sys, threading
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        print(listener.getsockname()[1], flush=True)
        def serve(connection):
            try:
                with context.wrap_socket(connection, server_side=True) as tls:
                    tls.recv(65536)
                    tls.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: 3\\r\\nConnection: close\\r\\n\\r\\n[1]")
            except Exception:
                pass
        while True:
            connection, _ = listener.accept()
            threading.Thread(target=serve, args=(connection,), daemon=True).start()
        """
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, certificate, key]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(10) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw POSIXError(.EIO)
        }
        self.port = port
    }

    deinit { stop() }

    public func stop() {
        // Not Process.waitUntilExit: on Linux it spins a run loop at full speed.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
