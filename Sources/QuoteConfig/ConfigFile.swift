import Glibc
import QuoteBase
import QuoteSystem

/// Finding and reading configuration files, without Foundation.
public enum ConfigFile {
    public struct ReadError: Error, Sendable {
        public let reason: String
    }

    /// The largest configuration (or key) file read: anything bigger is not one.
    public static let maximumSize = 1 << 20

    /// Reads a regular file of at most 1 MiB (a FIFO or device is refused, not waited on).
    public static func read(_ path: String) throws(ReadError) -> [UInt8] {
        do {
            return try FileReader.read(path, limit: maximumSize)
        } catch {
            if error.code == EFBIG { throw ReadError(reason: tooLarge(FileReader.size(path))) }
            throw ReadError(reason: error.reason)
        }
    }

    /// "2097152 bytes (2.1 MB): larger than the 1 MiB a configuration file may be".
    static func tooLarge(_ size: Int?) -> String {
        guard let size else { return tr("over 1 MiB (\(maximumSize) bytes): larger than the 1 MiB a configuration file may be") }
        return tr("\(size) bytes (\(ByteCount.human(size))): larger than the 1 MiB a configuration file may be")
    }

    /// The text of a configuration's bytes, or where its first byte that is not UTF-8 is.
    static func text(_ bytes: [UInt8], file: String) throws(ConfigError) -> String {
        if let text = String.validatingUTF8(bytes) { return text }
        guard let bad = UTF8Position.firstInvalid(in: bytes) else {
            throw ConfigError(file: file, line: 0, message: tr("not UTF-8 text"))
        }
        let byte = String(bytes[bad.offset], radix: 16, uppercase: true)
        let hex = byte.count == 1 ? "0" + byte : byte
        throw ConfigError(file: file, line: bad.line,
                          message: tr("column \(bad.column): byte 0x\(hex) is not UTF-8 (a configuration is UTF-8 text)"))
    }

    /// Loads the configuration from wherever `locate` finds it, or the defaults.
    public static func load(option: String?) throws(ConfigError) -> Configuration {
        guard let location = Locations.configuration(option: option) else { return .defaults }
        return try Configuration.load(path: location.path)
    }

    /// A configuration handed over on standard input (`--config -`, how the daemon passes
    /// its own to each sync), named `name` in messages.
    public static func loadStandardInput(name: String) throws(ConfigError) -> Configuration {
        let bytes: [UInt8]
        do {
            bytes = try FileReader.readStandardInput(limit: maximumSize, name: name)
        } catch {
            let message = error.code == EFBIG ? tooLarge(nil) : error.reason
            throw ConfigError(file: name, line: 0, message: message)
        }
        return try Configuration.parse(text(bytes, file: name), file: name)
    }

    /// A warning when the file holds an inline api_key and other users (its group, or
    /// everyone) may read it.
    static func readableKeyWarning(path: String, configuration: Configuration) -> String? {
        guard configuration.sources.contains(where: \.apiKeyIsInline) else { return nil }
        guard let status = try? FileSystem.status(path), status.permissions & 0o044 != 0 else { return nil }
        if status.permissions & 0o004 != 0 {
            return tr("""
                \(path) holds an inline api_key that every user can read: chmod go-r \(path), or move the key to an \
                api_key_file only the daemon's user can read (chown quoted; chmod 0400)
                """)
        }
        return tr("""
            \(path) holds an inline api_key that its group can read: chmod go-r \(path), or move the key to an \
            api_key_file only the daemon's user can read (chown quoted; chmod 0400)
            """)
    }
}
