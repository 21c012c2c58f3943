/* The least a C program can do for `quotectl random`: open the store read-only, one max(pick),
   one row by its pick, printed. scripts/bench/random.sh builds it statically and times it beside
   quotectl, fortune and /bin/true: the floor a store read through SQLite has on this machine.
   Given a hidden list and a shown history too (random-floor STORE HIDDEN SHOWN), it also does
   the user's state's part of a draw as quotectl does it: the hidden list read whole (and the
   drawn id looked for in it), one line appended to the history under its flock. */
#include <sqlite3.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
static int hidden(const char *path, long pick) {
    static char list[1 << 16]; char id[32]; ssize_t got; size_t size = 0; int file;
    if (access(path, F_OK) != 0 || (file = open(path, O_RDONLY | O_CLOEXEC)) < 0) return 0;
    while (size < sizeof list - 1 && (got = read(file, list + size, sizeof list - 1 - size)) > 0) size += (size_t)got;
    close(file); list[size] = 0;
    snprintf(id, sizeof id, "\"id\":\"%ld\"", pick);
    return strstr(list, id) != NULL;
}
static void shown(const char *path, long pick) {
    char line[160]; struct stat status; char last;
    int file = open(path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (file < 0) return;
    flock(file, LOCK_EX);
    if (fstat(file, &status) == 0 && status.st_size > 0) pread(file, &last, 1, status.st_size - 1);
    int length = snprintf(line, sizeof line, "{\"source\":\"custom.bench\",\"id\":\"%ld\",\"time\":%ld}\n", pick, (long)time(NULL));
    if (write(file, line, (size_t)length) != length) exit(1);
    close(file);
}
int main(int argc, char **argv) {
    sqlite3 *db; sqlite3_stmt *st;
    if (argc < 2 || sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) return 1;
    sqlite3_prepare_v2(db, "SELECT max(pick) FROM quotes", -1, &st, NULL);
    if (sqlite3_step(st) != SQLITE_ROW) return 1;
    long n = sqlite3_column_int64(st, 0); sqlite3_finalize(st);
    if (n <= 0) return 1;  /* an empty store: nothing to pick (and no division by zero) */
    srand(time(NULL) ^ getpid());
    long pick = 1 + rand() % n;
    if (argc > 3 && hidden(argv[2], pick)) pick = pick % n + 1;
    sqlite3_prepare_v2(db, "SELECT text, author FROM quotes WHERE pick = ?1", -1, &st, NULL);
    sqlite3_bind_int64(st, 1, pick);
    if (sqlite3_step(st) == SQLITE_ROW) printf("%s\n  — %s\n", sqlite3_column_text(st, 0), sqlite3_column_text(st, 1));
    sqlite3_finalize(st);
    if (argc > 3) shown(argv[3], pick);
    sqlite3_close(db); return 0;
}
