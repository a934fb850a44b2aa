#include <cairo/cairo.h>
#include <cairo/cairo-svg.h>
