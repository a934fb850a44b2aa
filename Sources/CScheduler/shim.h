// sched_setattr(2) for the calling thread. glibc has no wrapper for it before 2.41 and
// syscall(2) is variadic, which Swift cannot call; so the one system call lives here, in C.
#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

/// The kernel's `struct sched_attr` as its first version (SCHED_ATTR_SIZE_VER0, 48 bytes),
/// field for field: sched_setattr(2) reads `size` to know which version it is given.
struct usefulmap_sched_attr {
    uint32_t size;
    uint32_t sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;       // SCHED_OTHER's nice value: it is set too, so pass the thread's own
    uint32_t sched_priority;
    uint64_t sched_runtime;   // SCHED_OTHER since Linux 6.12: the thread's slice in ns (0: the kernel's)
    uint64_t sched_deadline;
    uint64_t sched_period;
};

/// Sets the calling thread's (tid 0) scheduling attributes. Returns 0, or the errno.
static inline int usefulmap_sched_setattr_current_thread(struct usefulmap_sched_attr *attr) {
    attr->size = (uint32_t)sizeof *attr;
    return syscall(SYS_sched_setattr, 0, attr, 0) == 0 ? 0 : errno;
}
