#ifndef NAVD_CYAML_SHIM_H
#define NAVD_CYAML_SHIM_H
/* libyaml's event parser; RouteFiles builds its own node tree from the events. */
#include <yaml.h>
#endif
