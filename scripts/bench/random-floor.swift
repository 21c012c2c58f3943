// random-floor.c's work in Swift — open the store read-only, one max(pick), one row by its pick,
// printed — as a Swift programmer writes it: the standard library and libsqlite3, nothing of
// quotectl's. scripts/bench/random.sh links it statically twice: as swiftc links it, and with
// quotectl's own start (Sources/CQuotectlStart, lld): what the Swift runtime's start costs a
// program that does the C floor's work.
import CSQLite
import Glibc

var db: OpaquePointer?
guard CommandLine.arguments.count > 1,
      sqlite3_open_v2(CommandLine.arguments[1], &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else { exit(1) }
var statement: OpaquePointer?
sqlite3_prepare_v2(db, "SELECT max(pick) FROM quotes", -1, &statement, nil)
guard sqlite3_step(statement) == SQLITE_ROW else { exit(1) }
let count = sqlite3_column_int64(statement, 0)
sqlite3_finalize(statement)
guard count > 0 else { exit(1) }  // an empty store: nothing to pick (0..<0 would trap)
sqlite3_prepare_v2(db, "SELECT text, author FROM quotes WHERE pick = ?1", -1, &statement, nil)
sqlite3_bind_int64(statement, 1, 1 + Int64.random(in: 0..<count))
if sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0), let author = sqlite3_column_text(statement, 1) {
    print("\(String(cString: text))\n  — \(String(cString: author))")
}
sqlite3_finalize(statement)
sqlite3_close(db)
