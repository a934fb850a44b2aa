// sd-bus from libsystemd (Debian libsystemd-dev): the session bus for desktop notifications.
#include <systemd/sd-bus.h>
