#ifndef NAVD_CMALLOC_SHIM_H
#define NAVD_CMALLOC_SHIM_H
/* glibc's malloc_trim, which Swift's Glibc module does not export (malloc.h is not part of it). */
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
/* Returns freed heap pages to the system after a large, short-lived allocation. */
static inline void navd_release_freed_memory(void) { (void)malloc_trim(0); }
#else
/* Other C libraries return freed pages on their own. */
static inline void navd_release_freed_memory(void) {}
#endif
#endif
