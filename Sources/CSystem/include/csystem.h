#ifndef QUOTED_CSYSTEM_H
#define QUOTED_CSYSTEM_H

#include <spawn.h>
#include <sys/types.h>

/* Linux socket calls that Swift's Glibc module does not import (they need _GNU_SOURCE). */

/* SO_PEERCRED: the pid, uid and gid of the process at the other end of a Unix socket. 0 on success. */
int quoted_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid);

/* SO_PEERGROUPS (Linux 4.13+): the supplementary groups of the process at the other end of a Unix
   socket, as they were when it connected. Returns how many were written to `groups` (at most
   `capacity`), or -1 with errno set: ERANGE when there are more (*needed then says how many),
   ENOPROTOOPT when the kernel does not know the option. */
int quoted_peer_groups(int fd, gid_t *groups, int capacity, int *needed);

/* accept4(fd, NULL, NULL, SOCK_CLOEXEC). */
int quoted_accept_cloexec(int fd);

/* pipe2(fds, O_CLOEXEC): a pipe whose ends no other child process inherits. */
int quoted_pipe_cloexec(int fds[2]);

/// An unnamed file in `folder` (open's O_TMPFILE, mode 0600, close-on-exec): gone when closed.
/// Where the file system has none, a named one made and unlinked at once. -1 with errno set.
int quoted_open_unnamed(const char *folder);

/* Makes the given signals write their number (one byte) to a pipe, from an async-signal-safe
   handler, and returns the pipe's read end (blocking, close-on-exec), or -1. Every thread may
   receive them: none is lost, none runs its default action. Call once. */
int quoted_signal_pipe(const int *numbers, int count);

/* The width of the terminal on fd in columns (TIOCGWINSZ; 80 when it does not say), or 0 when
   fd is not a terminal. */
int quoted_terminal_columns(int fd);

/* Its height in rows, or 0. */
int quoted_terminal_rows(int fd);

/* posix_spawn_file_actions_addclosefrom_np(actions, lowest): the child closes every descriptor
   from `lowest` on, whatever it inherited (glibc 2.34+). 0 on success, else an errno. */
int quoted_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/* The processors this process may run on (its affinity mask), or -1 when that cannot be read. */
int quoted_available_processors(void);

/* pidfd_open(2): a descriptor that polls readable when the child `pid` has ended (Linux 5.3+),
   close-on-exec; -1 with errno set (ENOSYS on an older kernel). */
int quoted_pidfd_open(pid_t pid);

/* glibc's gettext, which Swift's Glibc module leaves out (libintl.h): the catalog of `domain`
   in `folder` (bindtextdomain, its text as UTF-8 whatever the locale's charset), and a message
   looked up in it: the translation, or `message` itself (the same pointer) when it has none. */
void quoted_bind_catalog(const char *domain, const char *folder);
const char *quoted_translate(const char *domain, const char *message);
const char *quoted_translate_plural(const char *domain, const char *singular, const char *plural, unsigned long count);

#endif
