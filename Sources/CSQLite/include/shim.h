#ifndef NAVD_CSQLITE_SHIM_H
#define NAVD_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro Swift cannot import: "copy the value before the call returns". */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
