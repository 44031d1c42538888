#ifndef CPTY_H
#define CPTY_H
#include <stddef.h>

/// Opens a new pseudo-terminal master (posix_openpt, grantpt, unlockpt), puts the slave side in
/// raw 8N1 mode, and writes the slave's path into `path` (size `length`). Returns the master's
/// file descriptor, or -1 with errno set.
int cpty_open(char *path, size_t length);

/// Puts an open terminal in raw 8N1 mode at `baud` (0 keeps the speed) with RTS/CTS flow
/// control on or off. Returns 0, or -1 with errno set (for example, not a terminal).
int cpty_make_raw(int fd, int baud, int rtscts);

#endif
