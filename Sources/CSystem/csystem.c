#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libintl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "csystem.h"

int quoted_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid) {
    struct ucred credentials;
    socklen_t length = sizeof(credentials);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
}

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59
#endif

int quoted_peer_groups(int fd, gid_t *groups, int capacity, int *needed) {
    socklen_t length = (socklen_t)capacity * sizeof(gid_t);
    int result = getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &length);
    *needed = (int)(length / sizeof(gid_t));
    if (result != 0) return -1;
    return (int)(length / sizeof(gid_t));
}

int quoted_accept_cloexec(int fd) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC);
}

int quoted_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int quoted_open_unnamed(const char *folder) {
    int fd = open(folder, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) return fd;
    /* A file system without unnamed files: a named one, unlinked at once. */
    size_t length = strlen(folder);
    const char suffix[] = "/.quoted-spool-XXXXXX";
    char *path = malloc(length + sizeof(suffix));
    if (path == NULL) { errno = ENOMEM; return -1; }
    memcpy(path, folder, length);
    memcpy(path + length, suffix, sizeof(suffix));
    fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0) { int saved = errno; (void)unlink(path); errno = saved; }
    free(path);
    return fd;
}

static int quoted_signal_write_end = -1;

static void quoted_signal_handler(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    (void)write(quoted_signal_write_end, &byte, 1);
    errno = saved;
}

int quoted_signal_pipe(const int *numbers, int count) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    /* A full pipe must never block a handler: the write end alone is non-blocking. */
    fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK);
    quoted_signal_write_end = ends[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = quoted_signal_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigset_t unblock;
    sigemptyset(&unblock);
    for (int i = 0; i < count; i++) {
        if (sigaction(numbers[i], &action, NULL) != 0) return -1;
        sigaddset(&unblock, numbers[i]);
    }
    pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);
    return ends[0];
}

int quoted_terminal_columns(int fd) {
    struct winsize size;
    if (!isatty(fd)) return 0;
    /* A terminal that does not know its size (a serial line, a fresh pty) is taken as 80 wide. */
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) return 80;
    return size.ws_col;
}

int quoted_terminal_rows(int fd) {
    struct winsize size;
    if (!isatty(fd) || ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_row;
}

int quoted_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int quoted_available_processors(void) {
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof(mask), &mask) != 0) return -1;
    return CPU_COUNT(&mask);
}

int quoted_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

void quoted_bind_catalog(const char *domain, const char *folder) {
    bindtextdomain(domain, folder);
    bind_textdomain_codeset(domain, "UTF-8");
}

const char *quoted_translate(const char *domain, const char *message) {
    return dgettext(domain, message);
}

const char *quoted_translate_plural(const char *domain, const char *singular, const char *plural, unsigned long count) {
    return dngettext(domain, singular, plural, count);
}
