/* Arbitrary baud rates (termios2 with BOTHER, Linux only). Kept in its own file because
 * <asm/termbits.h> redefines struct termios and cannot share a translation unit with
 * <termios.h>. */
#include "cpty.h"
#include <errno.h>

#ifdef __linux__
#include <asm/ioctls.h>
#include <asm/termbits.h>
extern int ioctl(int fd, unsigned long request, ...);

int cpty_set_custom_speed(int fd, int baud) {
    if (baud <= 0) { errno = EINVAL; return -1; }
    struct termios2 t;
    if (ioctl(fd, TCGETS2, &t) != 0) return -1;
    t.c_cflag &= ~(CBAUD | (CBAUD << IBSHIFT));
    t.c_cflag |= BOTHER | (BOTHER << IBSHIFT);
    t.c_ispeed = (speed_t)baud;
    t.c_ospeed = (speed_t)baud;
    return ioctl(fd, TCSETS2, &t);
}
#else
int cpty_set_custom_speed(int fd, int baud) {
    (void)fd; (void)baud;
    errno = ENOTSUP;
    return -1;
}
#endif
