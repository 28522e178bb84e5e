// faultshim: an LD_PRELOAD library that counts a process's file-system calls under one folder
// and makes the Nth fail, as SQLite's test harness does for its own I/O layer. Built by
// Tools/faultshim/build.sh; driven by Tools/fault-harness.sh.
//
// Environment:
//   FAULT_DIR=PATH     only calls on paths under PATH (and on descriptors opened there) count
//   FAULT_AT=N         the Nth counted call is the injection point (0 or unset: count only)
//   FAULT_MODE=M       EIO | ENOSPC | EACCES | EINTR (the call fails with that errno, once)
//                      SHORT (a write writes half its bytes; only writes are counted)
//                      KILL (SIGKILL before the call is made)
//   FAULT_COUNT=FILE   at exit, the number of counted calls is written there
//   FAULT_HIT=FILE     the call injected ("N function path") is written there
//
// Counted: open, open64, openat, openat64, creat, write, fsync, fdatasync, rename, renameat,
// renameat2 (also through syscall(2)), close, unlink, unlinkat, rmdir, mkdir, mkdirat, link,
// linkat, chmod, fchmod, flock.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TRACKED_DESCRIPTORS 65536

static char folder[4096];
static size_t folder_length;
static long inject_at;
static int mode_errno;
static int mode_short;
static int mode_kill;
static long counter;
static int enabled;
static unsigned char tracked[TRACKED_DESCRIPTORS];
static int in_shim;

static void report_count(void) {
  const char *file = getenv("FAULT_COUNT");
  // Not written by a process that counted nothing (timeout(1) around the tool, say), so that
  // it does not overwrite the count of the process that did.
  if (!file || !enabled || __atomic_load_n(&counter, __ATOMIC_SEQ_CST) == 0) return;
  int saved = in_shim;
  in_shim = 1;
  FILE *out = fopen(file, "w");
  if (out) {
    fprintf(out, "%ld\n", __atomic_load_n(&counter, __ATOMIC_SEQ_CST));
    fclose(out);
  }
  in_shim = saved;
}

__attribute__((constructor)) static void setup(void) {
  const char *dir = getenv("FAULT_DIR");
  if (!dir || !*dir) return;
  if (!realpath(dir, folder)) {
    strncpy(folder, dir, sizeof folder - 1);
  }
  folder_length = strlen(folder);
  const char *at = getenv("FAULT_AT");
  inject_at = at ? atol(at) : 0;
  const char *mode = getenv("FAULT_MODE");
  if (mode) {
    if (!strcmp(mode, "EIO")) mode_errno = EIO;
    else if (!strcmp(mode, "ENOSPC")) mode_errno = ENOSPC;
    else if (!strcmp(mode, "EACCES")) mode_errno = EACCES;
    else if (!strcmp(mode, "EINTR")) mode_errno = EINTR;
    else if (!strcmp(mode, "SHORT")) mode_short = 1;
    else if (!strcmp(mode, "KILL")) mode_kill = 1;
  }
  enabled = 1;
  atexit(report_count);
}

// Whether `path` (relative to `dirfd`) lies under the watched folder.
static int watched_at(int dirfd, const char *path) {
  if (!enabled || in_shim || !path) return 0;
  if (path[0] == '/') {
    return strncmp(path, folder, folder_length) == 0 && (path[folder_length] == '/' || path[folder_length] == 0);
  }
  if (dirfd != AT_FDCWD) return dirfd >= 0 && dirfd < TRACKED_DESCRIPTORS && tracked[dirfd];
  // A relative path: the working folder joined with it (no "..", as the harness's commands).
  char full[8192];
  int saved = errno;
  int inside = 0;
  if (getcwd(full, 4096)) {
    size_t length = strlen(full);
    snprintf(full + length, sizeof full - length, "/%s", path);
    inside = strncmp(full, folder, folder_length) == 0 && (full[folder_length] == '/' || full[folder_length] == 0);
  }
  errno = saved;
  return inside;
}
static int watched(const char *path) { return watched_at(AT_FDCWD, path); }
static int watched_fd(int fd) { return enabled && !in_shim && fd >= 0 && fd < TRACKED_DESCRIPTORS && tracked[fd]; }

static void record_hit(long number, const char *function, const char *what) {
  const char *file = getenv("FAULT_HIT");
  if (!file) return;
  int saved = errno;
  in_shim = 1;
  FILE *out = fopen(file, "w");
  if (out) {
    fprintf(out, "%ld %s %s\n", number, function, what ? what : "");
    fclose(out);
  }
  in_shim = 0;
  errno = saved;
}

// Counts one call; answers the errno to fail it with (0: run it), after killing the process in
// KILL mode. `is_write` says whether SHORT mode may shorten it.
static int inject(const char *function, const char *what, int is_write, int *shorten) {
  if (mode_short && !is_write) return 0;
  long number = __atomic_add_fetch(&counter, 1, __ATOMIC_SEQ_CST);
  if (inject_at <= 0 || number != inject_at) return 0;
  record_hit(number, function, what);
  if (mode_kill) {
    report_count();
    kill(getpid(), SIGKILL);
  }
  if (mode_short) {
    *shorten = 1;
    return 0;
  }
  return mode_errno;
}

#define REAL(name, result, parameters) \
  static result(*real_##name) parameters; \
  if (!real_##name) real_##name = (result(*) parameters)dlsym(RTLD_NEXT, #name)

#define FAIL_IF(function, what, is_write) \
  int shorten = 0; \
  int failure = inject(function, what, is_write, &shorten); \
  if (failure) { \
    errno = failure; \
    return -1; \
  }

static void track(int fd, int on) {
  if (fd >= 0 && fd < TRACKED_DESCRIPTORS) tracked[fd] = (unsigned char)on;
}

static mode_t mode_argument(int flags, va_list arguments) {
  return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(arguments, int) : 0;
}

#define OPEN_BODY(function, dirfd, path, flags, mode, call) \
  int counted = watched_at(dirfd, path); \
  if (counted) { \
    FAIL_IF(function, path, 0) \
  } \
  int fd = call; \
  if (counted && fd >= 0) track(fd, 1); \
  return fd;

int open(const char *path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  mode_t mode = mode_argument(flags, arguments);
  va_end(arguments);
  REAL(open, int, (const char *, int, ...));
  OPEN_BODY("open", AT_FDCWD, path, flags, mode, real_open(path, flags, mode))
}
int open64(const char *path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  mode_t mode = mode_argument(flags, arguments);
  va_end(arguments);
  REAL(open64, int, (const char *, int, ...));
  OPEN_BODY("open", AT_FDCWD, path, flags, mode, real_open64(path, flags, mode))
}
int openat(int dirfd, const char *path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  mode_t mode = mode_argument(flags, arguments);
  va_end(arguments);
  REAL(openat, int, (int, const char *, int, ...));
  OPEN_BODY("openat", dirfd, path, flags, mode, real_openat(dirfd, path, flags, mode))
}
int openat64(int dirfd, const char *path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  mode_t mode = mode_argument(flags, arguments);
  va_end(arguments);
  REAL(openat64, int, (int, const char *, int, ...));
  OPEN_BODY("openat", dirfd, path, flags, mode, real_openat64(dirfd, path, flags, mode))
}
int creat(const char *path, mode_t mode) {
  REAL(creat, int, (const char *, mode_t));
  OPEN_BODY("creat", AT_FDCWD, path, O_CREAT, mode, real_creat(path, mode))
}

ssize_t write(int fd, const void *buffer, size_t count) {
  REAL(write, ssize_t, (int, const void *, size_t));
  if (watched_fd(fd)) {
    FAIL_IF("write", "", 1)
    if (shorten && count > 1) count /= 2;
  }
  return real_write(fd, buffer, count);
}

// What a descriptor is, for the record of the call injected: "folder" or "file".
static const char *kind_of(int fd) {
  struct stat status;
  int saved = errno;
  const char *kind = fstat(fd, &status) == 0 && S_ISDIR(status.st_mode) ? "folder" : "file";
  errno = saved;
  return kind;
}

#define FD_CALL(name, function, fd, call) \
  if (watched_fd(fd)) { \
    FAIL_IF(function, kind_of(fd), 0) \
  } \
  return call;

int fsync(int fd) {
  REAL(fsync, int, (int));
  FD_CALL(fsync, "fsync", fd, real_fsync(fd))
}
int fdatasync(int fd) {
  REAL(fdatasync, int, (int));
  FD_CALL(fdatasync, "fdatasync", fd, real_fdatasync(fd))
}
int fchmod(int fd, mode_t mode) {
  REAL(fchmod, int, (int, mode_t));
  FD_CALL(fchmod, "fchmod", fd, real_fchmod(fd, mode))
}
int flock(int fd, int operation) {
  REAL(flock, int, (int, int));
  FD_CALL(flock, "flock", fd, real_flock(fd, operation))
}
int close(int fd) {
  REAL(close, int, (int));
  if (watched_fd(fd)) {
    track(fd, 0);
    int shorten = 0;
    int failure = inject("close", "", 0, &shorten);
    int result = real_close(fd);  // the descriptor is released even when close fails
    if (failure) {
      errno = failure;
      return -1;
    }
    return result;
  }
  return real_close(fd);
}

#define PATH_CALL(function, path, call) \
  if (watched(path)) { \
    FAIL_IF(function, path, 0) \
  } \
  return call;

int rename(const char *from, const char *to) {
  REAL(rename, int, (const char *, const char *));
  PATH_CALL("rename", to, real_rename(from, to))
}
int renameat(int fromdir, const char *from, int todir, const char *to) {
  REAL(renameat, int, (int, const char *, int, const char *));
  if (watched_at(todir, to)) {
    FAIL_IF("renameat", to, 0)
  }
  return real_renameat(fromdir, from, todir, to);
}
int renameat2(int fromdir, const char *from, int todir, const char *to, unsigned int flags) {
  REAL(renameat2, int, (int, const char *, int, const char *, unsigned int));
  if (watched_at(todir, to)) {
    FAIL_IF("renameat2", to, 0)
  }
  return real_renameat2(fromdir, from, todir, to, flags);
}
int unlink(const char *path) {
  REAL(unlink, int, (const char *));
  PATH_CALL("unlink", path, real_unlink(path))
}
int unlinkat(int dirfd, const char *path, int flags) {
  REAL(unlinkat, int, (int, const char *, int));
  if (watched_at(dirfd, path)) {
    FAIL_IF("unlinkat", path, 0)
  }
  return real_unlinkat(dirfd, path, flags);
}
int rmdir(const char *path) {
  REAL(rmdir, int, (const char *));
  PATH_CALL("rmdir", path, real_rmdir(path))
}
int mkdir(const char *path, mode_t mode) {
  REAL(mkdir, int, (const char *, mode_t));
  PATH_CALL("mkdir", path, real_mkdir(path, mode))
}
int mkdirat(int dirfd, const char *path, mode_t mode) {
  REAL(mkdirat, int, (int, const char *, mode_t));
  if (watched_at(dirfd, path)) {
    FAIL_IF("mkdirat", path, 0)
  }
  return real_mkdirat(dirfd, path, mode);
}
int link(const char *from, const char *to) {
  REAL(link, int, (const char *, const char *));
  PATH_CALL("link", to, real_link(from, to))
}
int linkat(int fromdir, const char *from, int todir, const char *to, int flags) {
  REAL(linkat, int, (int, const char *, int, const char *, int));
  if (watched_at(todir, to)) {
    FAIL_IF("linkat", to, 0)
  }
  return real_linkat(fromdir, from, todir, to, flags);
}
int chmod(const char *path, mode_t mode) {
  REAL(chmod, int, (const char *, mode_t));
  PATH_CALL("chmod", path, real_chmod(path, mode))
}

// syscall(2): renameat2 is reached through it where the C library does not export it.
long syscall(long number, ...) {
  va_list arguments;
  va_start(arguments, number);
  long a = va_arg(arguments, long), b = va_arg(arguments, long), c = va_arg(arguments, long);
  long d = va_arg(arguments, long), e = va_arg(arguments, long), f = va_arg(arguments, long);
  va_end(arguments);
  REAL(syscall, long, (long, ...));
#ifdef SYS_renameat2
  if (number == SYS_renameat2 && watched_at((int)c, (const char *)d)) {
    FAIL_IF("renameat2", (const char *)d, 0)
  }
#endif
  return real_syscall(number, a, b, c, d, e, f);
}
