#ifndef NAVD_LIBRARY_LOADER_H
#define NAVD_LIBRARY_LOADER_H
/* A C library loaded on first use rather than at start (HACKING.md, "Dependencies, and why each is there"):
 * navd, navctl and navwatch are one executable, and navctl and navwatch never call libsqlite3 or libyaml, so
 * the executable does not link them; CSQLite and CYAML define the functions navd calls as trampolines that
 * load the library once, on the first call, and jump to its function. */
#include <pthread.h>

/* The library `soname`, opened once (RTLD_NOW | RTLD_LOCAL), or the process ends as the dynamic loader
 * would end it for a missing library: the message on stderr, exit status 127. */
void *navd_library_open(const char *soname);

/* The function `symbol` of `library` (from navd_library_open(soname)), or the process ends (status 127). */
void *navd_library_symbol(void *library, const char *soname, const char *symbol);

/* NAVD_LAZY_LIBRARY(soname, FUNCTIONS) defines, in the one C file of a library, a trampoline per function
 * FUNCTIONS lists: FUNCTIONS(F, V) calls F(returns, name, (parameters), (arguments)) for a function that returns
 * a value and V(name, (parameters), (arguments)) for one returning void. The declarations come from the
 * library's own header, included first, so a parameter list that differs from it does not compile. The
 * trampolines are hidden: not exported, so the library, once loaded, never binds to them. */
#define NAVD_LAZY_SLOT(returns, name, parameters, arguments) __typeof__(&name) name;
#define NAVD_LAZY_SLOT_VOID(name, parameters, arguments) __typeof__(&name) name;
#define NAVD_LAZY_RESOLVE(returns, name, parameters, arguments) \
    navd_lazy.name = (__typeof__(&name))navd_library_symbol(library, navd_lazy_soname, #name);
#define NAVD_LAZY_RESOLVE_VOID(name, parameters, arguments) NAVD_LAZY_RESOLVE(void, name, parameters, arguments)
#define NAVD_LAZY_TRAMPOLINE(returns, name, parameters, arguments) \
    __attribute__((visibility("hidden"))) returns name parameters { \
        pthread_once(&navd_lazy_once, navd_lazy_load); \
        return navd_lazy.name arguments; \
    }
#define NAVD_LAZY_TRAMPOLINE_VOID(name, parameters, arguments) \
    __attribute__((visibility("hidden"))) void name parameters { \
        pthread_once(&navd_lazy_once, navd_lazy_load); \
        navd_lazy.name arguments; \
    }
#define NAVD_LAZY_LIBRARY(soname, FUNCTIONS) \
    static const char navd_lazy_soname[] = soname; \
    static struct { FUNCTIONS(NAVD_LAZY_SLOT, NAVD_LAZY_SLOT_VOID) } navd_lazy; \
    static pthread_once_t navd_lazy_once = PTHREAD_ONCE_INIT; \
    static void navd_lazy_load(void) { \
        void *library = navd_library_open(navd_lazy_soname); \
        FUNCTIONS(NAVD_LAZY_RESOLVE, NAVD_LAZY_RESOLVE_VOID) \
    } \
    FUNCTIONS(NAVD_LAZY_TRAMPOLINE, NAVD_LAZY_TRAMPOLINE_VOID)

#endif
