/*
 * navd-load: a small libdbus load client, so a benchmark's client costs the same small
 * constant for every service it compares. Shared declarations of its three files.
 */
#ifndef NAVD_LOAD_H
#define NAVD_LOAD_H

#include <dbus/dbus.h>
#include <stddef.h>
#include <stdint.h>

/* Which calls a target gets. */
typedef enum {
    CALLS_PUSH_POP,   /* Push(route, {}) and Pop() alternately */
    CALLS_METHOD,     /* method() without arguments */
    CALLS_SEND_POP,   /* Send("", event, {}, 0) and Pop() alternately */
    CALLS_RESOLVE,    /* Resolve("event", event, {}) */
} CallPattern;

/* One service being driven: where it is, what to call, and what was measured. */
typedef struct {
    const char *address;       /* bus address */
    const char *destination;   /* bus name */
    const char *path;          /* object path */
    const char *interface;
    CallPattern pattern;
    const char *method;        /* CALLS_METHOD: the method */
    const char *route;         /* CALLS_PUSH_POP: the route pushed */
    const char *event;         /* CALLS_SEND_POP, CALLS_RESOLVE: the event */
    DBusConnection *connection;
    unsigned long index;       /* calls made so far: even -> Push or Send, odd -> Pop */
    uint64_t *samples;         /* nanoseconds, one per timed call */
    size_t count, capacity;
    uint64_t elapsed;          /* wall time of the timed loops, nanoseconds */
    unsigned long errors;      /* error replies among the timed calls */
} Target;

/* What to run. */
typedef struct {
    Target *targets;
    int target_count;
    long calls;        /* timed calls per target, rounded up to even */
    long warmup;       /* untimed calls per target before them */
    int window;        /* inflight: calls outstanding */
    int chunk;         /* inflight: calls per target per turn */
    int watchers;      /* fanout: watcher processes */
    uint64_t seed;     /* for the order of targets */
    int whole_pairs;   /* serial: each target makes both calls of a pair in its turn */
    int timeout_ms;    /* longest wait for one answer */
    uint64_t duration_ns;  /* serial: when set, the timed calls go on for this long instead of plan->calls */
} Plan;

/* Monotonic clock, nanoseconds. */
uint64_t now_ns(void);
/* Prints "navd-load: ..." to stderr and exits 1. */
void fail(const char *format, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* A private connection to address, registered with the bus. */
DBusConnection *connect_bus(const char *address);
/* The next call for target (and advances its index). */
DBusMessage *next_call(Target *target);
/* Sends message (consumed) and returns its serial. */
dbus_uint32_t send_call(Target *target, DBusMessage *message);
/* Waits for the reply to serial on target's connection; returns 1 for an error reply. */
int wait_reply(Target *target, dbus_uint32_t serial, int timeout_ms);
/* Appends one sample. */
void record(Target *target, uint64_t nanoseconds);
/* Shuffles order[0..count) with a SplitMix64 state. */
void shuffle(int *order, int count, uint64_t *state);

/* One timed call to target: nanoseconds from its send to whatever ends it; *is_error set for an error reply. */
typedef uint64_t (*timed_call)(Plan *plan, Target *target, int *is_error);
/* calls calls to each target, one at a time, in a new random order of the targets every
 * Push/Pop pair -- interleaved call by call, or pair by pair with plan->whole_pairs; with
 * timed, each is recorded as a sample of its target; timed with plan->duration_ns, pairs go on
 * until that time has passed instead. */
void one_at_a_time(Plan *plan, long calls, int timed, timed_call call);

/* The modes: each runs plan->warmup untimed then plan->calls timed calls per target. */
void run_serial(Plan *plan);
void run_inflight(Plan *plan);
void run_fanout(Plan *plan);

#endif
