// libical (Debian libical-dev): builds and parses the RFC 5545 calendars of `Sources/PlanCalendar`.
#include <libical/ical.h>
