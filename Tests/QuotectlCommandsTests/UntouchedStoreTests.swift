import Foundation
import Testing
import TestSupport

/// "Left untouched" is true byte for byte: a file that is not a sound quoted store keeps its
/// bytes, and its folder keeps its listing, whatever command meets it (quotectl's run in-process,
/// quoted's as the program; another user's read: ReadOnlyStoreTests).
@Suite(.offThePool, .timeLimit(.minutes(10))) struct UntouchedStoreTests {
    static let commands: [(String, [String])] = [
        ("quotectl", ["random"]), ("quotectl", ["today"]), ("quotectl", ["search", "time"]), ("quotectl", ["status"]),
        ("quotectl", ["characters"]), ("quotectl", ["deaths"]), ("quotectl", ["markets"]), ("quotectl", ["weather"]),
        ("quotectl", ["export", "--format", "json"]), ("quotectl", ["import", "LIST", "--name", "x"]),
        ("quotectl", ["forget", "custom.x"]), ("quoted", ["sync", "--once", "--config", "CONFIG"]),
    ]

    /// Runs sqlite3 with `sql` on `path`.
    static func sqlite(_ path: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
    }

    /// Every file in the folder with its bytes (the files are small: compared whole).
    static func fingerprint(_ folder: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            result[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return result
    }

    /// A folder holding only the file under test, `store.db`, and the configuration, list and home outside it.
    func prepare(_ make: (String) throws -> Void) throws -> (scratch: Scratch, store: String) {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("data"), withIntermediateDirectories: true)
        let store = scratch.file("data/store.db")
        try make(store)
        return (scratch, store)
    }

    func everyCommandLeavesIt(_ scratch: Scratch, store: String, expected: String) throws {
        let before = try Self.fingerprint(scratch.file("data"))
        let server = try TestUpstream { _ in .json(#"[{"id": 1, "text": "new", "source": "A"}]"#) }
        defer { server.stop() }
        let config = scratch.write("quoted.conf", BinaryRunner.oneListConfig(store: store, list: "custom.x", url: "\(server.baseURL)/l"))
        let list = scratch.write("list.json", #"[{"id": 1, "text": "one"}]"#)
        for (program, arguments) in Self.commands {
            let resolved = arguments.map { $0 == "LIST" ? list : $0 == "CONFIG" ? config : $0 }
            let result: InProcessQuotectl.Result
            if program == "quotectl" {
                var quotectl = InProcessQuotectl(home: scratch.path)
                quotectl.environment["QUOTED_DB"] = store
                result = try quotectl.run(resolved)
            } else {
                var runner = BinaryRunner(program, home: scratch.path)
                runner.environment["QUOTED_DB"] = store
                result = try runner.run(resolved)
            }
            #expect(result.status == 74, "\(program) \(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(program) \(arguments): \(result.stderr)")
            #expect(try Self.fingerprint(scratch.file("data")) == before, "\(program) \(arguments) touched the folder")
        }
    }

    @Test func ourMarkOnAForeignSchema() throws {
        let (scratch, store) = try prepare { path in
            try Self.sqlite(path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine'); PRAGMA application_id = 1970634612;")
        }
        try everyCommandLeavesIt(scratch, store: store, expected: "not a quoted store; left untouched")
    }

    @Test func aForeignDatabaseInWAL() throws {
        let (scratch, store) = try prepare { path in
            try Self.sqlite(path, "PRAGMA journal_mode = WAL; CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');")
        }
        #expect(!FileManager.default.fileExists(atPath: store + "-wal"))
        try everyCommandLeavesIt(scratch, store: store, expected: "not a quoted store; left untouched")
    }

    @Test func aTruncatedStore() throws {
        let (scratch, store) = try prepare { path in
            var importer = InProcessQuotectl(home: NSTemporaryDirectory())
            importer.environment["QUOTED_DB"] = path + ".full"
            let quotes = (1...3_000).map { #"{"id": \#($0), "text": "Quote number \#($0) about time and patience"}"# }
            let list = path + ".json"
            try Data(("[" + quotes.joined(separator: ",") + "]").utf8).write(to: URL(fileURLWithPath: list))
            #expect(try importer.run(["import", list, "--name", "big"]).status == 0)
            let whole = try Data(contentsOf: URL(fileURLWithPath: path + ".full"))
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
            for leftover in [".full", ".full-wal", ".full-shm", ".json"] { try? FileManager.default.removeItem(atPath: path + leftover) }
        }
        try everyCommandLeavesIt(scratch, store: store, expected: "damaged")
    }

    /// Every file in the folder with its size and modification time (to stat's nanosecond).
    static func listing(_ folder: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            var status = stat()
            guard stat(folder + "/" + name, &status) == 0 else { continue }
            result[name] = "\(status.st_size) bytes, modified \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
        }
        return result
    }

    /// A file that holds no store yet (0 bytes, or SQLite with no schema), met where none may be
    /// made: a reader of a store named by $QUOTED_DB or --db, or with --no-create, says so (66);
    /// check is UNKNOWN (3); and the folder keeps its names, sizes, times and bytes — no schema
    /// filled in, no -wal, -shm or -lock beside it.
    @Test(arguments: ["0 bytes", "SQLite with no schema"])
    func aFileThatHoldsNoStoreIsNeverFilled(kind: String) throws {
        let (scratch, store) = try prepare { path in
            if kind == "0 bytes" {
                #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            } else {
                try Self.sqlite(path, "PRAGMA user_version = 0; VACUUM;")
            }
        }
        let listed = try Self.listing(scratch.file("data")), before = try Self.fingerprint(scratch.file("data"))
        #expect(listed.keys.sorted() == ["store.db"], "\(listed)")
        let config = scratch.write("quoted.conf", "[store]\npath = \(store)\n" + BinaryRunner.fixedSourcesOff + "\n")
        let readers = [["random"], ["today"], ["search", "time"], ["status"], ["characters"], ["deaths"], ["markets"], ["weather"],
                       ["export", "--format", "json"]]
        var named = InProcessQuotectl(home: scratch.path)
        named.environment["QUOTED_DB"] = store
        let plain = InProcessQuotectl(home: scratch.path)
        // The store named by $QUOTED_DB, by --db, and at the configured path with --no-create.
        let ways: [(InProcessQuotectl, [String])] = [(named, []), (plain, ["--db", store]), (plain, ["--config", config, "--no-create"])]
        for arguments in readers {
            for (runner, global) in ways {
                let result = try runner.run(global + arguments)
                #expect(result.status == 66, "\(global + arguments): \(result.status) \(result.stderr)")
                #expect(result.stderr.hasPrefix("quotectl: \(store): holds no quoted store (") && result.stderr.split(separator: "\n").count == 1,
                        "\(global + arguments): \(result.stderr)")
            }
        }
        let check = try InProcessQuotectl(home: scratch.path).run(["--config", config, "check"])
        #expect(check.status == 3, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.hasPrefix("QUOTED UNKNOWN - \(store): holds no quoted store"), "\(check.stdout)")
        // A writer told --no-create, the hub's publisher and the metrics reader leave it as well.
        let list = scratch.write("list.json", #"[{"id": 1, "text": "one"}]"#)
        let imported = try plain.run(["--db", store, "--no-create", "import", list, "--name", "x"])
        #expect(imported.status == 66, "\(imported.status) \(imported.stderr)")
        let quoted = BinaryRunner("quoted", home: scratch.path)
        let hub = scratch.write("hub.conf", "[publish]\ndir = \(scratch.file("feed"))\n" + BinaryRunner.fixedSourcesOff + "\n")
        let publish = try quoted.run(["publish", "--config", hub, "--db", store])
        #expect(publish.status != 0 && publish.stderr.contains("holds no quoted store"), "\(publish.status) \(publish.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("feed")), "a feed folder made to publish nothing")
        let metrics = try quoted.run(["metrics", "--config", hub, "--db", store, "--write", scratch.file("quoted.prom")])
        #expect(metrics.status == 66 && metrics.stderr.contains("holds no quoted store"), "\(metrics.status) \(metrics.stderr)")
        #expect(try Self.listing(scratch.file("data")) == listed, "a command touched the folder")
        #expect(try Self.fingerprint(scratch.file("data")) == before)
    }

    /// Five zeroed pages: a sync refuses to write into the store (74), like every reader.
    @Test func aSyncRefusesADamagedStore() throws {
        let scratch = Scratch()
        let store = scratch.file("quotes.db")
        var importer = InProcessQuotectl(home: scratch.path)
        importer.environment["QUOTED_DB"] = store
        let quotes = (1...3_000).map { #"{"id": \#($0), "text": "Quote number \#($0) about time and patience"}"# }
        #expect(try importer.run(["import", "-", "--name", "big"], stdin: "[" + quotes.joined(separator: ",") + "]").status == 0)
        // Five pages near the end, which opening the store and a small sync never read.
        let size = try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int ?? 0
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: store))
        try handle.seek(toOffset: UInt64((size / 4_096 - 40) * 4_096))
        handle.write(Data(count: 5 * 4_096))
        try handle.close()
        let server = try TestUpstream { _ in .json(#"[{"id": 1, "text": "new", "source": "A"}]"#) }
        defer { server.stop() }
        let config = scratch.write("quoted.conf", BinaryRunner.oneListConfig(store: store, list: "custom.x", url: "\(server.baseURL)/l"))
        let result = try BinaryRunner("quoted", home: scratch.path).run(["sync", "--once", "--config", config])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("store: damaged"), "\(result.stderr)")
    }
}
