// Starting a child process that dies with its parent. Foundation's Process and posix_spawn
// cannot set a parent-death signal, and prctl(2) is variadic, which Swift cannot call; so the
// few system calls between fork and exec live here, in C, where nothing allocates.
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

// GNU extensions the importer's headers may hide (no _GNU_SOURCE); declared as glibc does.
extern int pipe2(int pipefd[2], int flags);
extern int close_range(unsigned int first, unsigned int last, int flags);
#ifndef NSIG
#define NSIG 65
#endif

/// Starts `path` with `argv` and `envp` (NULL-terminated) in a child that gets SIGKILL when
/// the thread that started it ends (PR_SET_PDEATHSIG), so also when the whole process dies,
/// even by SIGKILL. Descriptors `in`, `out`, `err` become 0, 1, 2 (-1 keeps the parent's);
/// `directory` (or NULL) becomes the working directory; every other descriptor is closed.
/// Signal dispositions and the mask are reset to the defaults (the daemon ignores SIGPIPE
/// and SIGTERM for itself only).
/// Returns the child's pid, or -1 with errno set when it could not be started (exec failures
/// included: the child reports its errno through a close-on-exec pipe).
static inline pid_t usefulmap_spawn_dying_with_parent(const char *path, char *const argv[], char *const envp[],
                                                      int in, int out, int err, const char *directory) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return -1;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        close(report[0]);
        close(report[1]);
        errno = saved;
        return -1;
    }
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        struct sigaction standard = {0};
        standard.sa_handler = SIG_DFL;
        for (int number = 1; number < NSIG; number++) sigaction(number, &standard, NULL);
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) goto failed;
        if (getppid() != parent) _exit(127); // the parent died before the signal was armed
        if (in >= 0 && dup2(in, 0) < 0) goto failed;
        if (out >= 0 && dup2(out, 1) < 0) goto failed;
        if (err >= 0 && dup2(err, 2) < 0) goto failed;
        if (directory != NULL && chdir(directory) != 0) goto failed;
        // Nothing else goes with it: a client's connection held open by a child would keep
        // that client waiting after the daemon died. Keeps the report pipe (close-on-exec).
        if (report[1] > 3) close_range(3, (unsigned int)report[1] - 1, 0);
        close_range((unsigned int)report[1] + 1, ~0U, 0);
        execve(path, argv, envp);
    failed:;
        int code = errno;
        ssize_t ignored = write(report[1], &code, sizeof code);
        (void)ignored;
        _exit(127);
    }
    close(report[1]);
    int code = 0;
    ssize_t got;
    do { got = read(report[0], &code, sizeof code); } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == (ssize_t)sizeof code) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        errno = code;
        return -1;
    }
    return pid;
}
