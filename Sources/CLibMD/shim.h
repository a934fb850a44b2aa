#include <sys/types.h>
#include <stdint.h>
#include <sha2.h>
