/* The libsqlite3 functions navd calls (Sources/SQLite), each a trampoline into libsqlite3.so.0, loaded on the
 * first call (Sources/CLibraryLoader/include/library_loader.h): navctl and navwatch, the same executable, never
 * load it. A function Sources/SQLite starts to call needs its line here, or the link fails naming it. */
#include "shim.h"
#include <library_loader.h>

#define SQLITE_FUNCTIONS(F, V) \
    F(int, sqlite3_open_v2, (const char *filename, sqlite3 **database, int flags, const char *vfs), \
      (filename, database, flags, vfs)) \
    F(int, sqlite3_close_v2, (sqlite3 *database), (database)) \
    F(int, sqlite3_extended_result_codes, (sqlite3 *database, int on), (database, on)) \
    F(int, sqlite3_busy_timeout, (sqlite3 *database, int milliseconds), (database, milliseconds)) \
    F(int, sqlite3_exec, \
      (sqlite3 *database, const char *sql, int (*callback)(void *, int, char **, char **), void *context, char **error), \
      (database, sql, callback, context, error)) \
    F(int, sqlite3_prepare_v3, \
      (sqlite3 *database, const char *sql, int bytes, unsigned int flags, sqlite3_stmt **statement, const char **tail), \
      (database, sql, bytes, flags, statement, tail)) \
    F(int, sqlite3_get_autocommit, (sqlite3 *database), (database)) \
    F(sqlite3_int64, sqlite3_changes64, (sqlite3 *database), (database)) \
    F(int, sqlite3_extended_errcode, (sqlite3 *database), (database)) \
    F(const char *, sqlite3_errmsg, (sqlite3 *database), (database)) \
    F(const char *, sqlite3_errstr, (int code), (code)) \
    F(int, sqlite3_step, (sqlite3_stmt *statement), (statement)) \
    F(int, sqlite3_reset, (sqlite3_stmt *statement), (statement)) \
    F(int, sqlite3_finalize, (sqlite3_stmt *statement), (statement)) \
    F(int, sqlite3_clear_bindings, (sqlite3_stmt *statement), (statement)) \
    F(int, sqlite3_bind_null, (sqlite3_stmt *statement, int index), (statement, index)) \
    F(int, sqlite3_bind_int64, (sqlite3_stmt *statement, int index, sqlite3_int64 value), (statement, index, value)) \
    F(int, sqlite3_bind_zeroblob, (sqlite3_stmt *statement, int index, int bytes), (statement, index, bytes)) \
    F(int, sqlite3_bind_blob64, \
      (sqlite3_stmt *statement, int index, const void *value, sqlite3_uint64 bytes, void (*destructor)(void *)), \
      (statement, index, value, bytes, destructor)) \
    F(int, sqlite3_bind_text64, \
      (sqlite3_stmt *statement, int index, const char *value, sqlite3_uint64 bytes, void (*destructor)(void *), \
       unsigned char encoding), \
      (statement, index, value, bytes, destructor, encoding)) \
    F(int, sqlite3_column_type, (sqlite3_stmt *statement, int column), (statement, column)) \
    F(sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt *statement, int column), (statement, column)) \
    F(const void *, sqlite3_column_blob, (sqlite3_stmt *statement, int column), (statement, column)) \
    F(const unsigned char *, sqlite3_column_text, (sqlite3_stmt *statement, int column), (statement, column)) \
    F(int, sqlite3_column_bytes, (sqlite3_stmt *statement, int column), (statement, column))

NAVD_LAZY_LIBRARY("libsqlite3.so.0", SQLITE_FUNCTIONS)
