// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "quoted",
    products: [
        .executable(name: "quotectl", targets: ["quotectl"]),
        .executable(name: "quoted", targets: ["quoted"]),
        .library(name: "QuoteStore", targets: ["QuoteStore"]),
    ],
    targets: [
        // SQLite from the system (Debian: libsqlite3-dev).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Turns Migrations/*.sql into Swift source at build time, so the schema
        // ships inside the binaries and no file is looked up at run time.
        .executableTarget(name: "migration-embedder"),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["migration-embedder"]
        ),
        // Compiles po/*.po with msgfmt at build time, so a program run from the build speaks
        // this checkout's catalogs; an installed one reads /usr/share/locale (Locations).
        .executableTarget(name: "catalog-compiler"),
        .plugin(
            name: "CompileCatalogs",
            capability: .buildTool(),
            dependencies: ["catalog-compiler"]
        ),
        // Linux calls Swift's Glibc module leaves out (they need _GNU_SOURCE): SO_PEERCRED,
        // accept4, pipe2, the signal pipe, the terminal's size. Used through QuoteSystem.
        .target(name: "CSystem"),
        // quotectl's start before the Swift runtime's, in the static link it is installed as:
        // the arguments as glibc hands them to an initializer (not the runtime's read of
        // /proc/self/maps) and no search for a backtracer an installed quotectl never has.
        // Linked dynamically (debug builds; the test runner, which links quotectl's objects)
        // it leaves the environment alone.
        .target(name: "CQuotectlStart"),
        // The system layer: descriptors that close once, errno with the EINTR retry in one place,
        // files, poll, child processes, the one runner for blocking work. Glibc and CSystem only.
        .target(name: "QuoteSystem", dependencies: ["CSystem"]),
        .target(name: "QuoteSystemTasks", dependencies: ["QuoteSystem"]),
        // What every module needs and none owns: environment, paths and the ONE search order
        // for the store, configuration and socket, capped file reads, exit codes, the version,
        // URL facts, Unix time. Over QuoteSystem: no Foundation.
        // Dates live here too (Time/: the one calendar, UTC and local time, RFC 3339, HTTP and RSS
        // dates), not in a module of their own: UnixTime needs the calendar, and every module that
        // reads or writes a date already depends on QuoteBase. Not in QuoteSync beside libcurl's
        // curl_getdate either: QuoteFormats and quotectl read and write dates and link no libcurl.
        .target(name: "QuoteBase", dependencies: ["QuoteSystem"], plugins: ["CompileCatalogs"]),
        // Text tools every module may need and none owns: strict JSON (whole and streamed) and its
        // writer, terminal sanitising, display width, table layout, case folding. No SQLite.
        .target(name: "QuoteText", dependencies: ["QuoteBase"]),
        // The values every module shares: source names, the quote and record models, change
        // counts, what a list reader hands over and how a list is written, the head of the feed's
        // manifest (read here once, for QuoteFeed and a hub's metrics alike), the rows a health
        // reading is made of. No SQLite.
        .target(name: "QuoteModels", dependencies: ["QuoteBase", "QuoteText"]),
        // libexpat from the system (Debian: libexpat1-dev): Atom and RSS are XML, and XML is not
        // parsed by hand. Only QuoteFormats links it.
        .systemLibrary(name: "CExpat", pkgConfig: "expat", providers: [.apt(["libexpat1-dev"])]),
        // The readers of the formats a quote list comes in (JSON by field mapping, fortune, text,
        // CSV, Atom and RSS), each streaming: a sync, a spoke's feed file and quotectl import read
        // through them; and the writers of quotectl export's. No SQLite, no Foundation.
        .target(name: "QuoteFormats", dependencies: ["QuoteBase", "QuoteText", "QuoteModels", "CExpat"]),
        // Health as plain data: the freshness rule every reader shares, quotectl check's Nagios
        // verdict, and the Prometheus text the metrics are written in. No SQLite, no Foundation.
        .target(name: "QuoteHealth", dependencies: ["QuoteBase", "QuoteText", "QuoteModels"]),
        // The store: the SQLite wrapper, migrations, and every SQL statement the project runs,
        // behind named operations (its connection is internal: the compiler keeps SQL here). It
        // hands rows; the modules above make health and exports of them. A module links it only
        // to run statements through it. No Foundation.
        .target(
            name: "QuoteStore",
            dependencies: ["CSQLite", "QuoteSystem", "QuoteBase", "QuoteText", "QuoteModels"],
            plugins: ["EmbedMigrations"]
        ),
        // The configuration: the INI file, its validated settings and their ranges (shared
        // by quoted and quotectl). No Foundation.
        .target(name: "QuoteConfig", dependencies: ["QuoteSystem", "QuoteBase", "QuoteText", "QuoteModels"]),
        // The control socket's line protocol and its client (quotectl's side). No Foundation.
        .target(name: "QuoteControl", dependencies: ["QuoteSystem", "QuoteBase", "QuoteModels"]),
        // Command-line arguments and usage errors, for quoted and quotectl. No Foundation.
        .target(name: "QuoteCommandLine", dependencies: ["QuoteSystem", "QuoteBase", "QuoteText"]),
        // When sources are due (intervals, backoff, blocks, catch-up) and what a sync reports:
        // the policy shared by the daemon and `quoted sync --once`. No networking.
        .target(name: "QuoteScheduling", dependencies: ["QuoteBase", "QuoteText", "QuoteModels", "QuoteConfig", "QuoteHealth"]),
        // libcurl from the system (Debian: libcurl4-openssl-dev), so that SwiftPM names the package when it is missing.
        .systemLibrary(name: "CLibcurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // libcurl's variadic setopt/getinfo as typed C functions.
        .target(name: "CCurl", dependencies: ["CLibcurl"]),
        // Ed25519 signatures from the system (Debian: libsodium-dev): no hand-written cryptography.
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // SHA-256 from OpenSSL's libcrypto (Debian: libssl-dev; libcurl links it already), which
        // uses the processor's SHA instructions where libsodium's SHA-256 is portable C
        // (docs/benchmarks.md, "Figures behind choices in the code").
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // gzip for the feed's .json.gz twins (Debian: zlib1g-dev).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The fleet's feed: its manifest, signify signatures, and the hub's publisher. No Foundation.
        .target(name: "QuoteFeed", dependencies: ["QuoteSystem", "QuoteBase", "QuoteText", "QuoteModels", "QuoteStore", "QuoteConfig", "CSodium", "CCrypto", "CZlib"]),
        // HTTP (libcurl), the five upstreams, the hub's feed as a sixth, and the sync engine.
        .target(name: "QuoteSync", dependencies: ["QuoteSystem", "QuoteSystemTasks", "QuoteBase", "QuoteText", "QuoteModels", "QuoteStore", "QuoteConfig", "QuoteScheduling", "QuoteFeed", "QuoteFormats", "CCurl"]),
        // This user's own state under $XDG_STATE_HOME/quoted: the quotes shown (seen history and
        // the last shown, for like/hide), the greetings (--once-per), liked and hidden. Never the store. No Foundation.
        .target(name: "QuoteUserState", dependencies: ["QuoteSystem", "QuoteBase", "QuoteText", "QuoteModels"]),
        // The daemon's parts: scheduler, control socket, sd_notify, signals, logging. It links
        // no networking: each sync runs as a child `quoted sync --once`.
        .target(name: "QuoteDaemon", dependencies: ["QuoteSystem", "QuoteSystemTasks", "QuoteBase", "QuoteText", "QuoteStore", "QuoteConfig", "QuoteControl", "QuoteScheduling", "QuoteHealth"]),
        // The daemon and `quoted sync --once`.
        .executableTarget(name: "quoted", dependencies: ["QuoteSystem", "QuoteSystemTasks", "QuoteBase", "QuoteCommandLine", "QuoteDaemon", "QuoteSync", "QuoteFeed", "QuoteText", "QuoteModels", "QuoteStore", "QuoteConfig", "QuoteControl", "QuoteScheduling", "QuoteHealth"]),
        // What the tests share: a local HTTP/1.1 server that imitates the upstreams (and
        // misbehaves on request), compressed bodies, a seeded generator, temporary folders.
        .target(name: "TestSupport", dependencies: ["QuoteSystem", "QuoteSystemTasks"], path: "Tests/TestSupport"),
        // Every quotectl command, as a library: a command line run with a context (standard
        // streams, environment, clock), so that tests run the commands in-process. No Foundation.
        .target(name: "QuotectlCommands", dependencies: ["QuoteSystem", "QuoteBase", "QuoteCommandLine", "QuoteText", "QuoteModels", "QuoteFormats", "QuoteStore", "QuoteConfig", "QuoteControl", "QuoteScheduling", "QuoteHealth", "QuoteUserState"]),
        // The CLI: its main.swift runs QuotectlCommands with the process's own context. No
        // Foundation: it must start like a C program.
        .executableTarget(
            name: "quotectl",
            dependencies: ["QuoteSystem", "QuoteBase", "QuotectlCommands", "CQuotectlStart"],
            // Release builds link fully statically (glibc and libsqlite3.a included): a
            // static program starts in half the time of a dynamically linked one, and
            // starting is most of what `quotectl random` costs (docs/benchmarks.md).
            exclude: ["quotectl.order"],
            // lld lays the code and data quotectl's everyday commands touch out first, in the
            // order of quotectl.order (scripts/bench/hot-order.sh writes it): `random` touches a
            // fifth of the pages it touched where the linker met them (docs/benchmarks.md).
            // The link's relocations are kept in the file (not loaded: no page of them is read at
            // run time), so that BOLT can lay out what lld cannot — the functions inside the
            // standard library's one text section (scripts/bench/random.sh, docs/benchmarks.md).
            linkerSettings: [.unsafeFlags(["-static-executable", "-use-ld=lld",
                                           "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/quotectl/quotectl.order",
                                           "-Xlinker", "--no-warn-symbol-ordering",
                                           "-Xlinker", "--emit-relocs"], .when(configuration: .release))]
        ),

        // Rules the compiler cannot check, read off the sources: SQLite imported by the store alone, raw
        // system calls only in QuoteSystem, no Foundation where ARCHITECTURE.md says none, and
        // ARCHITECTURE.md's module table the targets above with their dependencies.
        .testTarget(name: "ArchitectureTests", dependencies: ["TestSupport"]),
        .testTarget(name: "QuoteSystemTests", dependencies: ["QuoteSystem", "QuoteSystemTasks", "TestSupport"]),
        .testTarget(name: "QuoteBaseTests", dependencies: ["QuoteBase"]),
        .testTarget(name: "QuoteCommandLineTests", dependencies: ["QuoteCommandLine", "QuoteBase", "QuoteText"]),
        .testTarget(name: "QuoteControlTests", dependencies: ["QuoteControl", "QuoteModels"]),
        .testTarget(name: "QuoteTextTests", dependencies: ["QuoteText", "TestSupport"]),
        .testTarget(name: "QuoteHealthTests", dependencies: ["QuoteHealth", "QuoteModels"]),
        .testTarget(name: "QuoteModelsTests", dependencies: ["QuoteModels", "QuoteFormats", "QuoteText", "TestSupport"]),
        .testTarget(name: "QuoteFormatsTests", dependencies: ["QuoteFormats", "QuoteModels", "QuoteText", "QuoteStore", "TestSupport"]),
        .testTarget(name: "QuoteStoreTests", dependencies: ["QuoteStore", "QuoteModels", "QuoteText", "QuoteSystem", "QuoteHealth", "TestSupport"]),
        .testTarget(name: "QuoteConfigTests", dependencies: ["QuoteConfig", "QuoteModels", "TestSupport"]),
        .testTarget(name: "QuoteDaemonTests", dependencies: ["QuoteSystemTasks", "QuoteDaemon", "QuoteHealth", "QuoteSync", "QuoteConfig", "QuoteControl", "QuoteScheduling", "QuoteStore", "QuoteModels", "QuoteText", "QuoteSystem", "TestSupport"]),
        .testTarget(name: "QuoteFeedTests", dependencies: ["QuoteFeed", "QuoteFormats", "QuoteStore", "QuoteModels", "QuoteText", "QuoteConfig", "TestSupport"]),
        .testTarget(name: "QuoteSyncTests", dependencies: ["QuoteSystemTasks", "QuoteSync", "QuoteFeed", "QuoteFormats", "QuoteStore", "QuoteModels", "QuoteText", "QuoteConfig", "QuoteScheduling", "TestSupport"]),
        .testTarget(name: "QuoteUserStateTests", dependencies: ["QuoteUserState", "QuoteModels", "QuoteBase", "TestSupport"]),
        // quotectl's commands run in-process (InProcessQuotectl): their output, exit statuses and
        // effects on stores and files, without a process each (quoted, where a test needs the
        // daemon's program beside them, is run as the program).
        .testTarget(name: "QuotectlCommandsTests", dependencies: ["QuotectlCommands", "quoted", "QuoteCommandLine", "QuoteStore", "QuoteModels", "QuoteText", "QuoteBase", "QuoteSystem", "TestSupport"]),
        // What only processes show: the static binary and its start, signals, pipes, the locale at
        // exec, the pager, terminals, the daemon and its sandbox, login snippets run by a shell.
        .testTarget(name: "EndToEndTests", dependencies: ["QuoteSystemTasks", "quotectl", "quoted", "QuoteStore", "QuoteModels", "QuoteText", "QuoteSystem", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// In release builds each function has a section of its own, so that the link can lay quotectl's
// hot functions out side by side (quotectl.order above), and a concrete type's metadata is asked
// for by its accessor, not by its mangled name, which the runtime's demangler decodes on first
// use (docs/benchmarks.md).
for target in package.targets where [.regular, .executable, .test].contains(target.type) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-function-sections",
                                                                         "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
                                                                        .when(configuration: .release))]
}
