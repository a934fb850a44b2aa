#include <routino.h>
#include <stdio.h>
/* Swift 6 rejects reading the mutable global `Routino_errno` directly. */
static inline int routino_last_error(void) { return Routino_errno; }
/* One route point as the worker writes it ("61.497750,23.761000", degrees): snprintf in the C
   locale the worker keeps, the bytes Foundation's String(format:) wrote, at a tenth of its cost. */
static inline int routino_format_point(char *buffer, size_t size, double latitude, double longitude) {
    return snprintf(buffer, size, "%.6f,%.6f", latitude, longitude);
}
