#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call: this wraps the call we need.
   It must run before the first connection opens (sqlite3_initialize). */

/* Memory statistics take a global mutex on every allocation; quoted never reads them. */
static inline int quoted_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}


#include <string.h>

/* The first `count` bytes of a database file and the file's size, read through SQLite's own
   VFS. Closing a descriptor with close(2) drops every POSIX lock this process holds on the file,
   those of its open SQLite connections included; SQLite's VFS keeps such a descriptor open until
   its connections' locks are released. `*read` is how many bytes were read (at most `count`). */
static inline int quoted_sqlite3_read_prefix(const char *path, unsigned char *buffer, int count,
                                             sqlite3_int64 *size, int *read) {
    sqlite3_vfs *vfs = sqlite3_vfs_find(0);
    if (!vfs) return SQLITE_ERROR;
    sqlite3_file *file = sqlite3_malloc(vfs->szOsFile);
    if (!file) return SQLITE_NOMEM;
    memset(file, 0, (size_t)vfs->szOsFile);
    int flags = 0;
    *read = 0;
    int rc = vfs->xOpen(vfs, path, file, SQLITE_OPEN_READONLY | SQLITE_OPEN_MAIN_DB, &flags);
    if (rc == SQLITE_OK) rc = file->pMethods->xFileSize(file, size);
    if (rc == SQLITE_OK) {
        int wanted = *size < count ? (int)*size : count;
        if (wanted > 0) rc = file->pMethods->xRead(file, buffer, wanted, 0);
        if (rc == SQLITE_OK) *read = wanted;
    }
    if (file->pMethods) file->pMethods->xClose(file);
    sqlite3_free(file);
    return rc;
}

/* The first `count` bytes of an open connection's main database file, read through that
   connection's own descriptor (SQLITE_FCNTL_FILE_POINTER): no other open of the file, no close. */
static inline int quoted_sqlite3_connection_prefix(sqlite3 *db, unsigned char *buffer, int count, int *read) {
    sqlite3_file *file = 0;
    *read = 0;
    int rc = sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file);
    if (rc != SQLITE_OK || !file || !file->pMethods) return rc == SQLITE_OK ? SQLITE_ERROR : rc;
    sqlite3_int64 size = 0;
    rc = file->pMethods->xFileSize(file, &size);
    if (rc == SQLITE_OK) {
        int wanted = size < count ? (int)size : count;
        if (wanted > 0) rc = file->pMethods->xRead(file, buffer, wanted, 0);
        if (rc == SQLITE_OK) *read = wanted;
    }
    return rc;
}
