/* The least a C program can do for `quotectl random`: open the store read-only, one max(pick),
   one row by its pick, printed. scripts/bench/random.sh builds it statically and times it beside
   quotectl, fortune and /bin/true: the floor a store read through SQLite has on this machine. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
    sqlite3 *db; sqlite3_stmt *st;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) return 1;
    sqlite3_prepare_v2(db, "SELECT max(pick) FROM quotes", -1, &st, NULL);
    if (sqlite3_step(st) != SQLITE_ROW) return 1;
    long n = sqlite3_column_int64(st, 0); sqlite3_finalize(st);
    srand(time(NULL) ^ getpid());
    sqlite3_prepare_v2(db, "SELECT text, author FROM quotes WHERE pick = ?1", -1, &st, NULL);
    sqlite3_bind_int64(st, 1, 1 + rand() % n);
    if (sqlite3_step(st) == SQLITE_ROW) printf("%s\n  — %s\n", sqlite3_column_text(st, 0), sqlite3_column_text(st, 1));
    sqlite3_finalize(st); sqlite3_close(db); return 0;
}
