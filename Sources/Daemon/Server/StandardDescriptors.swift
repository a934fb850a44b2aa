import Glibc

/// Descriptors 0-2 and the files the daemon writes, made safe before anything else opens a file.
public enum StandardDescriptors {
    /// Holds each of descriptors 0, 1 and 2 that is closed on `/dev/null`. Started with them
    /// closed (a careless supervisor, `usefulmapd >&-`), the daemon's epoll and eventfd would
    /// otherwise take 1 and 2, and every log line would be written into the eventfd.
    public static func holdOnDevNull() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // open returns the lowest free descriptor: this one, since those below it are open now.
            let opened = open("/dev/null", O_RDWR)
            if opened >= 0 && opened != descriptor {
                _ = dup2(opened, descriptor)
                close(opened)
            }
        }
    }

    /// Files the daemon creates are its user's alone (0600, folders 0700) whatever umask it
    /// was started with: the database holds saved places such as "Home", and `plans.ics` the
    /// day's plans. (The socket sets its own mode; region data is public but gains nothing
    /// from being readable by others.)
    public static func keepCreatedFilesPrivate() {
        umask(0o077)
    }
}
