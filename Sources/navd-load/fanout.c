/*
 * navd-load's fan-out mode. plan->watchers watcher processes, forked before any connection is
 * made, each with a connection of its own and a match on StackChanged from every target; one
 * caller sends Push/Pop to each target in turn and times from the send until the last watcher
 * has read the call's StackChanged. The watchers are the same processes for every target, so
 * what they cost is the same for all of them.
 *
 * The watchers share one page with the caller: an arrival counter and one timestamp each
 * (CLOCK_MONOTONIC is system-wide). The watcher whose arrival completes the count writes one
 * byte to a pipe, so the caller wakes once per call, not once per watcher.
 */
#define _GNU_SOURCE
#include "load.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    int ready;          /* watchers subscribed */
    int arrived;        /* watchers holding the current call's StackChanged */
    int stop;
    uint64_t arrival[]; /* per watcher: when it read the signal */
} Shared;

static Shared *shared;
static int wake_pipe[2];

static void watch(Plan *plan, int slot) {
    DBusConnection *connection = connect_bus(plan->targets[0].address);
    char rule[512];
    for (int i = 0; i < plan->target_count; i++) {
        snprintf(rule, sizeof rule, "type='signal',sender='%s',interface='%s',member='StackChanged'",
                 plan->targets[i].destination, plan->targets[i].interface);
        dbus_bus_add_match(connection, rule, NULL);   /* blocks until the bus has it */
    }
    if (__atomic_add_fetch(&shared->ready, 1, __ATOMIC_SEQ_CST) == plan->watchers)
        (void)!write(wake_pipe[1], "r", 1);
    while (!__atomic_load_n(&shared->stop, __ATOMIC_SEQ_CST)) {
        DBusMessage *message;
        if (!dbus_connection_read_write(connection, 200)) break;
        while ((message = dbus_connection_pop_message(connection)) != NULL) {
            if (dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL &&
                dbus_message_has_member(message, "StackChanged")) {
                __atomic_store_n(&shared->arrival[slot], now_ns(), __ATOMIC_SEQ_CST);
                if (__atomic_add_fetch(&shared->arrived, 1, __ATOMIC_SEQ_CST) == plan->watchers)
                    (void)!write(wake_pipe[1], "a", 1);
            }
            dbus_message_unref(message);
        }
    }
    _exit(0);
}

/* Waits for one byte on the wake pipe; 0 after timeout_ms. */
static int wait_wake(int timeout_ms) {
    struct pollfd wake = {.fd = wake_pipe[0], .events = POLLIN};
    char byte;
    int result;
    do result = poll(&wake, 1, timeout_ms); while (result < 0 && errno == EINTR);
    return result == 1 && read(wake_pipe[0], &byte, 1) == 1;
}

/* One call, send to the last watcher reading its StackChanged. */
static uint64_t fanout_call(Plan *plan, Target *target, int *is_error) {
    DBusMessage *message = next_call(target);
    uint64_t sent, last = 0;
    __atomic_store_n(&shared->arrived, 0, __ATOMIC_SEQ_CST);
    sent = now_ns();
    dbus_uint32_t serial = send_call(target, message);
    dbus_connection_flush(target->connection);
    *is_error = wait_reply(target, serial, plan->timeout_ms);
    if (!wait_wake(10000))
        fail("only %d of %d watchers got StackChanged from %s within 10 s",
             __atomic_load_n(&shared->arrived, __ATOMIC_SEQ_CST), plan->watchers, target->destination);
    for (int w = 0; w < plan->watchers; w++) {
        uint64_t arrival = __atomic_load_n(&shared->arrival[w], __ATOMIC_SEQ_CST);
        if (arrival > last) last = arrival;
    }
    return last - sent;
}

void run_fanout(Plan *plan) {
    pid_t watchers[plan->watchers];
    size_t size = sizeof(Shared) + (size_t)plan->watchers * sizeof(uint64_t);
    for (int i = 1; i < plan->target_count; i++)
        if (strcmp(plan->targets[i].address, plan->targets[0].address) != 0)
            fail("fanout: every target must be on one bus");
    shared = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED || pipe(wake_pipe) != 0) fail("cannot share memory with the watchers");
    memset(shared, 0, size);
    fflush(NULL);
    for (int w = 0; w < plan->watchers; w++) {
        watchers[w] = fork();
        if (watchers[w] < 0) fail("cannot start watcher %d: %s", w, strerror(errno));
        if (watchers[w] == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            watch(plan, w);
        }
    }
    if (!wait_wake(30000)) fail("the watchers did not subscribe within 30 s");
    for (int i = 0; i < plan->target_count; i++) plan->targets[i].connection = connect_bus(plan->targets[i].address);
    one_at_a_time(plan, plan->warmup, 0, fanout_call);
    one_at_a_time(plan, plan->calls, 1, fanout_call);
    __atomic_store_n(&shared->stop, 1, __ATOMIC_SEQ_CST);
    for (int w = 0; w < plan->watchers; w++) {
        int status;
        kill(watchers[w], SIGTERM);
        waitpid(watchers[w], &status, 0);
    }
}
