#include "library_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

/* Ends the process as ld.so does when a library NEEDED at start is missing (status 127), naming what failed. */
static void fail(const char *soname, const char *what) {
    const char *reason = dlerror();
    fprintf(stderr, "navd: error while loading shared libraries: %s: %s%s%s\n", soname, what, reason ? ": " : "",
            reason ? reason : "");
    _exit(127);
}

void *navd_library_open(const char *soname) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) fail(soname, "cannot be opened (is its package installed?)");
    return library;
}

void *navd_library_symbol(void *library, const char *soname, const char *symbol) {
    dlerror();
    void *function = dlsym(library, symbol);
    if (!function) fail(soname, symbol);
    return function;
}
