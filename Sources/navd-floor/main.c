/*
 * navd-floor: the benchmark's floors. A libdbus service that answers org.navd.Navigator1's
 * Push and Pop with navd's reply shapes and sends, per call, the same StackChanged and one
 * PropertiesChanged -- the naive thing, no batching.
 *
 * Without --state it keeps no state: what it costs is what the bus itself costs for this
 * interface (the bus floor). With --state FILE it is the durable floor: before it replies it
 * commits one row per change to the SQLite database FILE in WAL mode with synchronous=NORMAL,
 * navd's default -- the cheapest service that keeps navd's promise that an answered change
 * survives a crash of the service.
 *
 * Usage: navd-floor --address ADDR [--name org.navd.Navigator1] [--state FILE]
 * Exit status: 0 after SIGTERM/SIGINT or when the bus goes away, 1 when the name is taken, the
 * bus is unreachable or FILE cannot be opened, 2 for bad usage.
 */
#include <dbus/dbus.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#define OBJECT_PATH "/org/navd/Navigator1"
#define INTERFACE "org.navd.Navigator1"
#define PROPERTIES "org.freedesktop.DBus.Properties"
#define PEER "org.freedesktop.DBus.Peer"

static volatile sig_atomic_t stop_requested = 0;
static dbus_uint64_t revision = 1;   /* a fresh tree is revision 1, as in navd */
static unsigned long next_id = 2;    /* "#1" is the root screen */

/* The durable floor's database and its one statement; NULL for the bus floor. */
static sqlite3 *database = NULL;
static sqlite3_stmt *insert_change = NULL;

/* Opens FILE as navd opens its state file (WAL, synchronous=NORMAL, an exclusive lock) with a
 * table of changes; 0 on success, else prints why and returns 1. */
static int open_state(const char *path) {
    const char *setup =
        "PRAGMA locking_mode = EXCLUSIVE;"
        "PRAGMA journal_mode = WAL;"
        "PRAGMA synchronous = NORMAL;"
        "CREATE TABLE IF NOT EXISTS changes ("
        " revision INTEGER PRIMARY KEY, cause TEXT NOT NULL, id TEXT NOT NULL, route TEXT NOT NULL);";
    if (sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL)
            != SQLITE_OK
        || sqlite3_exec(database, setup, NULL, NULL, NULL) != SQLITE_OK
        || sqlite3_prepare_v3(database, "INSERT INTO changes (revision, cause, id, route) VALUES (?1, ?2, ?3, ?4)",
                              -1, SQLITE_PREPARE_PERSISTENT, &insert_change, NULL) != SQLITE_OK) {
        fprintf(stderr, "navd-floor: cannot open the state file %s: %s\n", path,
                database ? sqlite3_errmsg(database) : "out of memory");
        return 1;
    }
    return 0;
}

/* Commits the change that makes `revision` (its own transaction); 0 on success, else 1. */
static int commit_change(const char *cause, const char *id, const char *route) {
    int result;
    sqlite3_bind_int64(insert_change, 1, (sqlite3_int64)revision);
    sqlite3_bind_text(insert_change, 2, cause, -1, SQLITE_STATIC);
    sqlite3_bind_text(insert_change, 3, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(insert_change, 4, route, -1, SQLITE_STATIC);
    result = sqlite3_step(insert_change);
    sqlite3_reset(insert_change);
    return result == SQLITE_DONE ? 0 : 1;
}

static void request_stop(int signal_number) {
    (void)signal_number;
    stop_requested = 1;
}

static void append_string(DBusMessageIter *iter, const char *value) {
    dbus_message_iter_append_basic(iter, DBUS_TYPE_STRING, &value);
}

/* One Entry (sssa{sv}) with empty params. */
static void append_entry(DBusMessageIter *array, const char *id, const char *route,
                         const char *presentation) {
    DBusMessageIter entry, params;
    dbus_message_iter_open_container(array, DBUS_TYPE_STRUCT, NULL, &entry);
    append_string(&entry, id);
    append_string(&entry, route);
    append_string(&entry, presentation);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_ARRAY, "{sv}", &params);
    dbus_message_iter_close_container(&entry, &params);
    dbus_message_iter_close_container(array, &entry);
}

/* One {sv} entry of a property dictionary; type is a basic D-Bus type. */
static void append_property(DBusMessageIter *dict, const char *key, int type, const void *value) {
    DBusMessageIter entry, variant;
    char signature[2] = {(char)type, '\0'};
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    append_string(&entry, key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, signature, &variant);
    dbus_message_iter_append_basic(&variant, type, value);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(dict, &entry);
}

/* StackChanged(t revision, s cause, s tab, a(sssa{sv}) path), path of two entries. */
static DBusMessage *stack_changed(const char *cause, const char *top_id, const char *top_route) {
    DBusMessage *signal = dbus_message_new_signal(OBJECT_PATH, INTERFACE, "StackChanged");
    DBusMessageIter args, path;
    const char *tab = "rainbow";
    if (signal == NULL) return NULL;
    dbus_message_iter_init_append(signal, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_UINT64, &revision);
    append_string(&args, cause);
    append_string(&args, tab);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "(sssa{sv})", &path);
    append_entry(&path, "#1", "red", "root");
    append_entry(&path, top_id, top_route, "push");
    dbus_message_iter_close_container(&args, &path);
    return signal;
}

/* PropertiesChanged("org.navd.Navigator1", {Revision, Depth, Top, TopId, CanUndo, CanRedo}, []). */
static DBusMessage *properties_changed(const char *top_id, const char *top_route) {
    DBusMessage *signal = dbus_message_new_signal(OBJECT_PATH, PROPERTIES, "PropertiesChanged");
    DBusMessageIter args, changed, invalidated;
    const char *interface = INTERFACE;
    dbus_uint32_t depth = 2;
    dbus_bool_t can_undo = TRUE, can_redo = FALSE;
    if (signal == NULL) return NULL;
    dbus_message_iter_init_append(signal, &args);
    append_string(&args, interface);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &changed);
    append_property(&changed, "Revision", DBUS_TYPE_UINT64, &revision);
    append_property(&changed, "Depth", DBUS_TYPE_UINT32, &depth);
    append_property(&changed, "Top", DBUS_TYPE_STRING, &top_route);
    append_property(&changed, "TopId", DBUS_TYPE_STRING, &top_id);
    append_property(&changed, "CanUndo", DBUS_TYPE_BOOLEAN, &can_undo);
    append_property(&changed, "CanRedo", DBUS_TYPE_BOOLEAN, &can_redo);
    dbus_message_iter_close_container(&args, &changed);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "s", &invalidated);
    dbus_message_iter_close_container(&args, &invalidated);
    return signal;
}

/* Sends and releases message (NULL means out of memory: dropped, as libdbus would). */
static void send_and_release(DBusConnection *connection, DBusMessage *message) {
    if (message == NULL) return;
    dbus_connection_send(connection, message, NULL);
    dbus_message_unref(message);
}

static void reply_error(DBusConnection *connection, DBusMessage *call, const char *name,
                        const char *text) {
    if (!dbus_message_get_no_reply(call))
        send_and_release(connection, dbus_message_new_error(call, name, text));
}

/* Push or Pop: a new revision (committed first, for the durable floor), the reply,
 * StackChanged, PropertiesChanged, in that order. */
static void change(DBusConnection *connection, DBusMessage *call, int is_push) {
    char id[32];
    const char *route = "orange", *id_text = id;
    DBusMessage *reply;
    if (is_push) {
        DBusMessageIter args;
        dbus_message_iter_init(call, &args);
        dbus_message_iter_get_basic(&args, &route);
        snprintf(id, sizeof id, "#%lu", next_id);
    } else {
        snprintf(id, sizeof id, "#%lu", next_id - 1);
    }
    revision++;
    if (database != NULL && commit_change(is_push ? "push" : "pop", id, route) != 0) {
        revision--;
        reply_error(connection, call, DBUS_ERROR_FAILED, sqlite3_errmsg(database));
        return;
    }
    if (is_push) next_id++;
    if (!dbus_message_get_no_reply(call)) {
        reply = dbus_message_new_method_return(call);
        if (reply != NULL) {
            dbus_message_append_args(reply, DBUS_TYPE_UINT64, &revision, DBUS_TYPE_INVALID);
            if (is_push) dbus_message_append_args(reply, DBUS_TYPE_STRING, &id_text, DBUS_TYPE_INVALID);
        }
        send_and_release(connection, reply);
    }
    send_and_release(connection, stack_changed(is_push ? "push" : "pop", id, route));
    send_and_release(connection, properties_changed(id, route));
}

static void handle(DBusConnection *connection, DBusMessage *message) {
    if (dbus_message_get_type(message) != DBUS_MESSAGE_TYPE_METHOD_CALL) return;
    if (dbus_message_is_method_call(message, PEER, "Ping")) {
        if (!dbus_message_get_no_reply(message))
            send_and_release(connection, dbus_message_new_method_return(message));
    } else if (!dbus_message_has_path(message, OBJECT_PATH)) {
        reply_error(connection, message, DBUS_ERROR_UNKNOWN_OBJECT, "navd-floor serves only " OBJECT_PATH);
    } else if (dbus_message_is_method_call(message, INTERFACE, "Push")) {
        if (dbus_message_has_signature(message, "sa{sv}"))
            change(connection, message, 1);
        else
            reply_error(connection, message, DBUS_ERROR_INVALID_ARGS, "Push takes (sa{sv})");
    } else if (dbus_message_is_method_call(message, INTERFACE, "Pop")) {
        if (dbus_message_has_signature(message, ""))
            change(connection, message, 0);
        else
            reply_error(connection, message, DBUS_ERROR_INVALID_ARGS, "Pop takes no arguments");
    } else {
        reply_error(connection, message, DBUS_ERROR_UNKNOWN_METHOD, "navd-floor answers only Push, Pop and Ping");
    }
    dbus_connection_flush(connection);
}

static int usage(const char *problem) {
    fprintf(stderr, "navd-floor: %s\nusage: navd-floor --address ADDR [--name org.navd.Navigator1] [--state FILE]\n", problem);
    return 2;
}

int main(int argc, char **argv) {
    const char *address = NULL, *name = INTERFACE, *state = NULL;
    DBusConnection *connection;
    DBusError error;
    struct sigaction action;
    int i, result;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--address") == 0 && i + 1 < argc) address = argv[++i];
        else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) name = argv[++i];
        else if (strcmp(argv[i], "--state") == 0 && i + 1 < argc) state = argv[++i];
        else if (strcmp(argv[i], "--help") == 0) return usage("the floors of navd's benchmark: the bus's, or with --state a durable one"), 0;
        else return usage("unknown or incomplete option");
    }
    if (address == NULL) return usage("--address is required");
    if (state != NULL && open_state(state) != 0) return 1;

    memset(&action, 0, sizeof action);
    action.sa_handler = request_stop;   /* no SA_RESTART: the poll wakes up */
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    signal(SIGPIPE, SIG_IGN);

    dbus_error_init(&error);
    connection = dbus_connection_open_private(address, &error);
    if (connection == NULL || !dbus_bus_register(connection, &error)) {
        fprintf(stderr, "navd-floor: cannot connect to %s: %s\n", address, error.message);
        return 1;
    }
    dbus_connection_set_exit_on_disconnect(connection, FALSE);
    result = dbus_bus_request_name(connection, name, DBUS_NAME_FLAG_DO_NOT_QUEUE, &error);
    if (result != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "navd-floor: cannot own %s: %s\n", name,
                dbus_error_is_set(&error) ? error.message : "another connection owns it");
        return 1;
    }

    /* read_write polls at most 100 ms, so a stop request is seen promptly. */
    while (!stop_requested && dbus_connection_read_write(connection, 100)) {
        DBusMessage *message;
        while ((message = dbus_connection_pop_message(connection)) != NULL) {
            handle(connection, message);
            dbus_message_unref(message);
        }
    }

    if (dbus_connection_get_is_connected(connection)) {
        dbus_bus_release_name(connection, name, NULL);
        dbus_connection_flush(connection);
    }
    dbus_connection_close(connection);
    dbus_connection_unref(connection);
    sqlite3_finalize(insert_change);
    sqlite3_close(database);
    return 0;
}
