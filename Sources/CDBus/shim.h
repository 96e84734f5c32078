#ifndef NAVD_CDBUS_SHIM_H
#define NAVD_CDBUS_SHIM_H
#include <dbus/dbus.h>
/* eventfd for Connection.wake(); Glibc's Swift module does not export it. */
#include <sys/eventfd.h>
#endif
