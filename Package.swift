// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "quoted",
    products: [
        .executable(name: "quotectl", targets: ["quotectl"]),
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
        // The store: SQLite wrapper, migrations, models and queries. No Foundation.
        .target(
            name: "QuoteStore",
            dependencies: ["CSQLite"],
            plugins: ["EmbedMigrations"]
        ),
        // The CLI. No Foundation: it must start like a C program.
        .executableTarget(
            name: "quotectl",
            dependencies: ["QuoteStore"],
            // Release builds link fully statically (glibc and libsqlite3.a included):
            // measured here, that halves start-up (1.3 ms -> 0.6 ms for an empty
            // program), which is most of what `quotectl random` costs.
            linkerSettings: [.unsafeFlags(["-static-executable"], .when(configuration: .release))]
        ),

        .testTarget(name: "QuoteStoreTests", dependencies: ["QuoteStore"]),
        .testTarget(name: "QuotectlTests", dependencies: ["quotectl", "QuoteStore"]),
    ],
    swiftLanguageModes: [.v6]
)
