#ifndef NAVD_CDBUS_SHIM_H
#define NAVD_CDBUS_SHIM_H
#include <dbus/dbus.h>
#endif
