/*
 * navd-load's calls: building them, sending them, waiting for their replies, and the two
 * call modes -- one at a time (serial) and a window in flight (inflight).
 */
#include "load.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

uint64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

void fail(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    fputs("navd-load: ", stderr);
    vfprintf(stderr, format, arguments);
    fputc('\n', stderr);
    va_end(arguments);
    exit(1);
}

DBusConnection *connect_bus(const char *address) {
    DBusError error;
    DBusConnection *connection;
    dbus_error_init(&error);
    connection = dbus_connection_open_private(address, &error);
    if (connection == NULL || !dbus_bus_register(connection, &error))
        fail("cannot connect to %s: %s", address, error.message);
    dbus_connection_set_exit_on_disconnect(connection, FALSE);
    return connection;
}

/* Appends an empty a{sv}. */
static void append_empty_params(DBusMessageIter *arguments) {
    DBusMessageIter params;
    dbus_message_iter_open_container(arguments, DBUS_TYPE_ARRAY, "{sv}", &params);
    dbus_message_iter_close_container(arguments, &params);
}

DBusMessage *next_call(Target *target) {
    static const char *empty = "", *event_kind = "event";
    static const dbus_uint64_t any_revision = 0;
    DBusMessage *message;
    DBusMessageIter arguments;
    int first_of_pair = target->index % 2 == 0;
    const char *member;
    switch (target->pattern) {
    case CALLS_METHOD: member = target->method; break;
    case CALLS_RESOLVE: member = "Resolve"; break;
    case CALLS_SEND_POP: member = first_of_pair ? "Send" : "Pop"; break;
    default: member = first_of_pair ? "Push" : "Pop"; break;
    }
    message = dbus_message_new_method_call(target->destination, target->path, target->interface, member);
    if (message == NULL) fail("out of memory");
    dbus_message_iter_init_append(message, &arguments);
    if (target->pattern == CALLS_PUSH_POP && first_of_pair) {
        dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &target->route);
        append_empty_params(&arguments);
    } else if (target->pattern == CALLS_SEND_POP && first_of_pair) {
        dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &empty);
        dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &target->event);
        append_empty_params(&arguments);
        dbus_message_iter_append_basic(&arguments, DBUS_TYPE_UINT64, &any_revision);
    } else if (target->pattern == CALLS_RESOLVE) {
        dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &event_kind);
        dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &target->event);
        append_empty_params(&arguments);
    }
    target->index++;
    return message;
}

dbus_uint32_t send_call(Target *target, DBusMessage *message) {
    dbus_uint32_t serial = 0;
    if (!dbus_connection_send(target->connection, message, &serial)) fail("out of memory");
    dbus_message_unref(message);
    return serial;
}

/* Reads until a reply arrives; its serial and whether it is an error. 0 on timeout. */
static int next_reply(Target *target, uint64_t deadline, dbus_uint32_t *serial, int *is_error) {
    for (;;) {
        DBusMessage *message;
        while ((message = dbus_connection_pop_message(target->connection)) != NULL) {
            int type = dbus_message_get_type(message);
            if (type == DBUS_MESSAGE_TYPE_METHOD_RETURN || type == DBUS_MESSAGE_TYPE_ERROR) {
                *serial = dbus_message_get_reply_serial(message);
                *is_error = type == DBUS_MESSAGE_TYPE_ERROR;
                dbus_message_unref(message);
                return 1;
            }
            dbus_message_unref(message);
        }
        uint64_t now = now_ns();
        if (now >= deadline) return 0;
        if (!dbus_connection_read_write(target->connection, (int)((deadline - now) / 1000000 + 1)))
            fail("the bus went away while waiting for %s", target->destination);
    }
}

int wait_reply(Target *target, dbus_uint32_t serial, int timeout_ms) {
    uint64_t deadline = now_ns() + (uint64_t)timeout_ms * 1000000u;
    dbus_uint32_t got;
    int is_error;
    do {
        if (!next_reply(target, deadline, &got, &is_error))
            fail("no reply from %s within %d ms", target->destination, timeout_ms);
    } while (got != serial);
    return is_error;
}

void record(Target *target, uint64_t nanoseconds) {
    if (target->count == target->capacity) {
        target->capacity = target->capacity ? target->capacity * 2 : 4096;
        target->samples = realloc(target->samples, target->capacity * sizeof *target->samples);
        if (target->samples == NULL) fail("out of memory");
    }
    target->samples[target->count++] = nanoseconds;
}

static uint64_t splitmix(uint64_t *state) {
    uint64_t mixed = (*state += 0x9E3779B97F4A7C15u);
    mixed = (mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9u;
    mixed = (mixed ^ (mixed >> 27)) * 0x94D049BB133111EBu;
    return mixed ^ (mixed >> 31);
}

void shuffle(int *order, int count, uint64_t *state) {
    for (int i = count - 1; i > 0; i--) {
        int j = (int)(splitmix(state) % (uint64_t)(i + 1));
        int kept = order[i];
        order[i] = order[j];
        order[j] = kept;
    }
}

void one_at_a_time(Plan *plan, long calls, int timed, timed_call call) {
    int order[plan->target_count];
    int per_turn = plan->whole_pairs ? 2 : 1;
    uint64_t state = plan->seed;
    uint64_t end = timed && plan->duration_ns ? now_ns() + plan->duration_ns : 0;
    for (int i = 0; i < plan->target_count; i++) order[i] = i;
    for (long index = 0; end ? 1 : index < calls; index += per_turn) {
        if (index % 2 == 0) {
            if (end && now_ns() >= end) break;
            shuffle(order, plan->target_count, &state);
        }
        for (int k = 0; k < plan->target_count; k++) {
            Target *target = &plan->targets[order[k]];
            for (int step = 0; step < per_turn; step++) {
                int is_error = 0;
                uint64_t elapsed = call(plan, target, &is_error);
                if (!timed) continue;
                record(target, elapsed);
                target->elapsed += elapsed;
                target->errors += (unsigned long)is_error;
            }
        }
    }
}

/* One call, send to reply. */
static uint64_t serial_call(Plan *plan, Target *target, int *is_error) {
    DBusMessage *message = next_call(target);
    uint64_t sent = now_ns();
    dbus_uint32_t serial = send_call(target, message);
    dbus_connection_flush(target->connection);
    *is_error = wait_reply(target, serial, plan->timeout_ms);
    return now_ns() - sent;
}

void run_serial(Plan *plan) {
    one_at_a_time(plan, plan->warmup, 0, serial_call);
    one_at_a_time(plan, plan->calls, 1, serial_call);
}

/* count calls to target with plan->window outstanding: one more sent for each reply. */
static void window_pass(Plan *plan, Target *target, long count, int timed) {
    dbus_uint32_t serials[plan->window];
    uint64_t times[plan->window];
    int outstanding = 0;
    long sent = 0, done = 0;
    uint64_t began = now_ns();
    while (done < count) {
        while (outstanding < plan->window && sent < count) {
            DBusMessage *message = next_call(target);
            times[outstanding] = now_ns();
            serials[outstanding++] = send_call(target, message);
            sent++;
        }
        dbus_connection_flush(target->connection);
        dbus_uint32_t serial;
        int is_error, slot;
        if (!next_reply(target, now_ns() + (uint64_t)plan->timeout_ms * 1000000u, &serial, &is_error))
            fail("no reply from %s within %d ms (%ld of %ld answered)", target->destination, plan->timeout_ms, done, count);
        for (slot = 0; slot < outstanding && serials[slot] != serial; slot++) {}
        if (slot == outstanding) continue;   /* a reply to a call of an earlier pass */
        if (timed) {
            record(target, now_ns() - times[slot]);
            target->errors += (unsigned long)is_error;
        }
        outstanding--;
        serials[slot] = serials[outstanding];
        times[slot] = times[outstanding];
        done++;
    }
    if (timed) target->elapsed += now_ns() - began;
}

/* Each target in turn (a new random order every turn) runs plan->chunk calls until each made calls. */
static void inflight_pass(Plan *plan, long calls, int timed) {
    int order[plan->target_count];
    uint64_t state = plan->seed;
    for (int i = 0; i < plan->target_count; i++) order[i] = i;
    for (long made = 0; made < calls;) {
        long count = calls - made < plan->chunk ? calls - made : plan->chunk;
        count += count % 2;
        shuffle(order, plan->target_count, &state);
        for (int k = 0; k < plan->target_count; k++) window_pass(plan, &plan->targets[order[k]], count, timed);
        made += count;
    }
}

void run_inflight(Plan *plan) {
    inflight_pass(plan, plan->warmup, 0);
    inflight_pass(plan, plan->calls, 1);
}
