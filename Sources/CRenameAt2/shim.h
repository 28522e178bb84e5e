// renameat2(2) with RENAME_EXCHANGE, which Glibc's Swift module map does not export (and older
// C libraries do not declare): it swaps two paths in one step, so a folder is replaced
// atomically. Called through syscall(2), which Swift cannot call itself (it is variadic).
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Swaps the entries `first` and `second` (both must exist) in one step; 0, or -1 with errno
/// (ENOSYS: no such system call; EINVAL: the file system cannot exchange).
static inline int stasis_exchange_paths(const char *first, const char *second) {
#if defined(__linux__) && defined(SYS_renameat2)
  return (int)syscall(SYS_renameat2, -100 /* AT_FDCWD */, first, -100, second, 1 << 1 /* RENAME_EXCHANGE */);
#else
  (void)first;
  (void)second;
  errno = ENOSYS;
  return -1;
#endif
}
