// A thread's scheduling attributes (sched_setattr(2), sched_getattr(2)). glibc before 2.41
// has no wrappers and syscall(2) is variadic, which Swift cannot call; so the two calls live here.
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/// struct sched_attr of the kernel's uapi (the first version, 48 bytes, and the utilization
/// clamps of the second: 56 bytes).
struct usefulmap_sched_attr {
    uint32_t size;
    uint32_t sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;
    uint32_t sched_priority;
    uint64_t sched_runtime;
    uint64_t sched_deadline;
    uint64_t sched_period;
    uint32_t sched_util_min;
    uint32_t sched_util_max;
};

/// Sets the calling thread's policy (SCHED_OTHER 0, SCHED_BATCH 3) and, since Linux 6.12 under
/// EEVDF, its slice: `slice_ns` in sched_runtime (0 keeps the default; the kernel accepts
/// 100 µs to 100 ms). The nice value is kept. Returns 0, or the errno of the refusal
/// (EINVAL: a kernel without custom slices; EPERM: a policy refused).
static inline int usefulmap_set_own_scheduling(uint32_t policy, uint64_t slice_ns) {
    struct usefulmap_sched_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    if (syscall(SYS_sched_getattr, 0, &attr, (unsigned int)sizeof attr, 0) != 0) return errno;
    attr.size = sizeof attr;
    attr.sched_policy = policy;
    attr.sched_flags = 0;
    attr.sched_priority = 0;
    attr.sched_runtime = slice_ns;
    attr.sched_deadline = 0;
    attr.sched_period = 0;
    return syscall(SYS_sched_setattr, 0, &attr, 0) == 0 ? 0 : errno;
}

/// Reads thread `tid`'s policy and slice (sched_runtime; 0 when it has the default). Returns 0
/// or the errno (ESRCH: no such thread).
static inline int usefulmap_thread_scheduling(pid_t tid, uint32_t *policy, uint64_t *slice_ns) {
    struct usefulmap_sched_attr attr;
    memset(&attr, 0, sizeof attr);
    if (syscall(SYS_sched_getattr, tid, &attr, (unsigned int)sizeof attr, 0) != 0) return errno;
    *policy = attr.sched_policy;
    *slice_ns = attr.sched_runtime;
    return 0;
}

/// The calling thread's id (gettid(2); glibc's wrapper needs _GNU_SOURCE).
static inline pid_t usefulmap_thread_id(void) { return (pid_t)syscall(SYS_gettid); }
