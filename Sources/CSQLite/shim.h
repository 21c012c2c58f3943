#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call: these wrap the calls we need.
   Both must run before the first connection opens (sqlite3_initialize). */

/* Memory statistics take a global mutex on every allocation; quoted never reads them. */
static inline int quoted_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

