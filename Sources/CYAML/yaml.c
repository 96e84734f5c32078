/* The libyaml functions navd calls (Sources/RouteFiles), each a trampoline into libyaml-0.so.2, loaded on the
 * first call (Sources/CLibraryLoader/include/library_loader.h): navctl and navwatch, the same executable, never
 * load it. A function Sources/RouteFiles starts to call needs its line here, or the link fails naming it. */
#include "shim.h"
#include <library_loader.h>

#define YAML_FUNCTIONS(F, V) \
    F(int, yaml_parser_initialize, (yaml_parser_t *parser), (parser)) \
    V(yaml_parser_delete, (yaml_parser_t *parser), (parser)) \
    V(yaml_parser_set_input_string, (yaml_parser_t *parser, const unsigned char *input, size_t size), \
      (parser, input, size)) \
    V(yaml_parser_set_encoding, (yaml_parser_t *parser, yaml_encoding_t encoding), (parser, encoding)) \
    F(int, yaml_parser_parse, (yaml_parser_t *parser, yaml_event_t *event), (parser, event)) \
    V(yaml_event_delete, (yaml_event_t *event), (event))

NAVD_LAZY_LIBRARY("libyaml-0.so.2", YAML_FUNCTIONS)
