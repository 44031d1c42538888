#ifndef CPTY_H
#define CPTY_H
#include <stddef.h>

/// Opens a new pseudo-terminal master (posix_openpt, grantpt, unlockpt), puts the slave side in
/// raw 8N1 mode, and writes the slave's path into `path` (size `length`). Returns the master's
/// file descriptor, or -1 with errno set.
int cpty_open(char *path, size_t length);

/// Puts an open terminal in raw 8N1 mode at `baud` (0 keeps the speed) with RTS/CTS flow
/// control on or off, VMIN = VTIME = 0 (reads never block in the driver; callers poll).
/// Standard rates use their B constant; any other rate goes through `cpty_set_custom_speed`.
/// Returns 0, or -1 with errno set (for example ENOTTY: not a terminal).
int cpty_make_raw(int fd, int baud, int rtscts);

/// Sets an arbitrary baud rate with termios2/BOTHER (ioctl TCSETS2; Linux only, ENOTSUP
/// elsewhere). Returns 0, or -1 with errno set (EINVAL if the driver refuses the rate).
int cpty_set_custom_speed(int fd, int baud);

#endif
