/*
 * navd-load: a neutral load client for navd's benchmark -- tiny, on libdbus, so the client's
 * cost is the same small constant for navd and for the services it is compared with.
 *
 * Usage: navd-load serial|inflight|fanout [run options] TARGET-OPTIONS... --dest NAME ...
 *   target options apply to every --dest that follows them:
 *     --address ADDR       bus address (required)
 *     --path PATH          object path (default /org/navd/Navigator1)
 *     --app NAME           object path of the app NAME: /org/navd/Navigator1/apps/NAME
 *     --interface NAME     interface (default org.navd.Navigator1)
 *     --push-pop ROUTE     calls are Push(ROUTE, {}) and Pop() alternately (the default, route orange)
 *     --send-pop EVENT     calls are Send('', EVENT, {}, 0) and Pop() alternately (on the demo's red,
 *                          Send next pushes orange: the like of --push-pop orange)
 *     --resolve EVENT      calls are Resolve('event', EVENT, {}) (a dry run: changes nothing)
 *     --method NAME        calls are NAME() without arguments (Ping with --interface org.freedesktop.DBus.Peer)
 *     --dest NAME          adds a target: NAME with the options given so far
 *   run options:
 *     --calls N            timed calls per target, rounded up to even (default 1000)
 *     --warmup N           untimed calls per target first (default 100)
 *     --window N           inflight: calls outstanding (default 32)
 *     --chunk N            inflight: calls per target per turn (default 256)
 *     --watchers N         fanout: watcher processes (default 1)
 *     --seed N             order of the targets (default 7)
 *     --whole-pairs        serial: each target makes both calls of a pair in its turn (for targets
 *                          that share one service, so one's Push is popped before another's Send)
 *     --timeout-ms N       longest wait for an answer (default 120000)
 *     --duration-ms N      serial: make timed calls for N ms (whole pairs, checked every pair) instead of
 *                          --calls per target (a load that runs beside another, such as a Reload loop)
 *     --samples            also print every sample
 * serial: one call at a time, the targets interleaved call by call (or pair by pair with
 * --whole-pairs) in a random order per Push/Pop pair; a sample is send to reply. inflight: each target in turn keeps --window calls
 * outstanding for --chunk calls; a sample is send to reply, calls/s is over the wall time.
 * fanout: one call at a time; a sample is send to the last watcher reading its StackChanged.
 *
 * Output, one line per target (numbers in ns unless named):
 *   target I DEST calls N errors N elapsed_ns N p50_us X p90_us X p99_us X max_us X mean_us X calls_per_s X
 *   samples I NS NS ...        (with --samples)
 * Percentiles are exact (nearest rank over every sample). Exit 0, 1 on a failure (said on
 * stderr), 2 for bad usage.
 */
#include "load.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TARGETS 16

static int usage(const char *problem) {
    fprintf(stderr, "navd-load: %s\nusage: navd-load serial|inflight|fanout [--calls N] [--warmup N] [--window N] "
                    "[--chunk N] [--watchers N] [--seed N] [--whole-pairs] [--duration-ms N] [--samples] --address ADDR "
                    "[--path P | --app NAME] "
                    "[--interface I] [--push-pop ROUTE | --send-pop EVENT | --resolve EVENT | --method NAME] "
                    "--dest NAME...\n", problem);
    return 2;
}

static int compare(const void *left, const void *right) {
    uint64_t a = *(const uint64_t *)left, b = *(const uint64_t *)right;
    return (a > b) - (a < b);
}

/* Nearest-rank percentile of sorted[0..count). */
static double percentile_us(const uint64_t *sorted, size_t count, double fraction) {
    double rank = (double)count * fraction;
    size_t index = (size_t)rank;
    if ((double)index < rank) index++;
    if (index > 0) index--;
    if (index >= count) index = count - 1;
    return (double)sorted[index] / 1000.0;
}

static void report(const Target *target, int index, int with_samples) {
    uint64_t *sorted = malloc((target->count + 1) * sizeof *sorted);
    double total = 0;
    if (sorted == NULL) fail("out of memory");
    memcpy(sorted, target->samples, target->count * sizeof *sorted);
    qsort(sorted, target->count, sizeof *sorted, compare);
    for (size_t i = 0; i < target->count; i++) total += (double)sorted[i];
    printf("target %d %s calls %zu errors %lu elapsed_ns %llu", index, target->destination, target->count,
           target->errors, (unsigned long long)target->elapsed);
    if (target->count > 0)
        printf(" p50_us %.1f p90_us %.1f p99_us %.1f max_us %.1f mean_us %.1f calls_per_s %.0f",
               percentile_us(sorted, target->count, 0.50), percentile_us(sorted, target->count, 0.90),
               percentile_us(sorted, target->count, 0.99), (double)sorted[target->count - 1] / 1000.0,
               total / (double)target->count / 1000.0,
               target->elapsed ? (double)target->count * 1e9 / (double)target->elapsed : 0.0);
    putchar('\n');
    if (with_samples) {
        printf("samples %d", index);
        for (size_t i = 0; i < target->count; i++) printf(" %llu", (unsigned long long)target->samples[i]);
        putchar('\n');
    }
    free(sorted);
}

/* A positive number from text, or -1. */
static long number(const char *text) {
    char *end;
    long value = strtol(text, &end, 10);
    return (*text == '\0' || *end != '\0' || value < 0) ? -1 : value;
}

int main(int argc, char **argv) {
    static char app_paths[MAX_TARGETS][sizeof "/org/navd/Navigator1/apps/" + 64];
    int app_count = 0;
    Target targets[MAX_TARGETS], current = {.path = "/org/navd/Navigator1", .interface = "org.navd.Navigator1",
                                            .route = "orange"};
    Plan plan = {.targets = targets, .calls = 1000, .warmup = 100, .window = 32, .chunk = 256, .watchers = 1,
                 .seed = 7, .timeout_ms = 120000};
    int with_samples = 0;
    void (*mode)(Plan *);

    if (argc < 2) return usage("a mode is required");
    if (strcmp(argv[1], "serial") == 0) mode = run_serial;
    else if (strcmp(argv[1], "inflight") == 0) mode = run_inflight;
    else if (strcmp(argv[1], "fanout") == 0) mode = run_fanout;
    else if (strcmp(argv[1], "--help") == 0) return usage("a neutral load client for navd's benchmark"), 0;
    else return usage("the mode is serial, inflight or fanout");

    for (int i = 2; i < argc; i++) {
        const char *option = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        long count = value ? number(value) : -1;
        if (strcmp(option, "--samples") == 0) { with_samples = 1; continue; }
        if (strcmp(option, "--whole-pairs") == 0) { plan.whole_pairs = 1; continue; }
        if (value == NULL) return usage("an option lacks its value");
        i++;
        if (strcmp(option, "--address") == 0) current.address = value;
        else if (strcmp(option, "--path") == 0) current.path = value;
        else if (strcmp(option, "--app") == 0) {
            size_t length = strlen(value);
            if (length == 0 || length > 64 || strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") != length)
                return usage("an app name is 1-64 characters from A-Z, a-z, 0-9 and _");
            if (app_count == MAX_TARGETS) return usage("too many --app options");
            snprintf(app_paths[app_count], sizeof app_paths[app_count], "/org/navd/Navigator1/apps/%s", value);
            current.path = app_paths[app_count++];
        }
        else if (strcmp(option, "--interface") == 0) current.interface = value;
        else if (strcmp(option, "--push-pop") == 0) { current.route = value; current.pattern = CALLS_PUSH_POP; }
        else if (strcmp(option, "--send-pop") == 0) { current.event = value; current.pattern = CALLS_SEND_POP; }
        else if (strcmp(option, "--resolve") == 0) { current.event = value; current.pattern = CALLS_RESOLVE; }
        else if (strcmp(option, "--method") == 0) { current.method = value; current.pattern = CALLS_METHOD; }
        else if (strcmp(option, "--dest") == 0) {
            if (current.address == NULL) return usage("--address must come before --dest");
            if (plan.target_count == MAX_TARGETS) return usage("too many targets");
            targets[plan.target_count] = current;
            targets[plan.target_count++].destination = value;
        }
        else if (count < 0) return usage("unknown option, or a value that is not a number");
        else if (strcmp(option, "--calls") == 0) plan.calls = count + count % 2;
        else if (strcmp(option, "--warmup") == 0) plan.warmup = count + count % 2;
        else if (strcmp(option, "--window") == 0 && count > 0 && count <= 4096) plan.window = (int)count;
        else if (strcmp(option, "--chunk") == 0 && count > 0) plan.chunk = (int)count;
        else if (strcmp(option, "--watchers") == 0 && count > 0 && count <= 1000) plan.watchers = (int)count;
        else if (strcmp(option, "--seed") == 0) plan.seed = (uint64_t)count;
        else if (strcmp(option, "--duration-ms") == 0 && count > 0) plan.duration_ns = (uint64_t)count * 1000000u;
        else if (strcmp(option, "--timeout-ms") == 0 && count > 0 && count < 3600000) plan.timeout_ms = (int)count;
        else return usage("unknown option, or a value out of range");
    }
    if (plan.target_count == 0) return usage("at least one --dest is required");
    if (plan.duration_ns && mode != run_serial) return usage("--duration-ms is for serial only");

    signal(SIGPIPE, SIG_IGN);
    if (mode != run_fanout)
        for (int i = 0; i < plan.target_count; i++) targets[i].connection = connect_bus(targets[i].address);
    mode(&plan);
    for (int i = 0; i < plan.target_count; i++) {
        report(&targets[i], i, with_samples);
        free(targets[i].samples);   /* main's frame ends before exit's leak check: nothing else holds them */
    }
    fflush(stdout);
    return 0;
}
