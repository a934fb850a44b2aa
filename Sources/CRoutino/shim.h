#include <routino.h>
/* Swift 6 rejects reading the mutable global `Routino_errno` directly. */
static inline int routino_last_error(void) { return Routino_errno; }
